// Pushed preview frames (edit_stream.hpp): each session's clock and document, and the events its
// stream sends.
#include "edit_stream.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <nlohmann/json.hpp>

namespace mote::cli {
namespace {

using nlohmann::json;

constexpr size_t kMaxSessions = 8;  // sessions given a document but not (yet) streamed included
// A frame at most this often while playing: the clock moves on between them anyway.
constexpr auto kFrameInterval = std::chrono::milliseconds(33);

bool valid_session(const std::string& id) {
  return !id.empty() && id.size() <= 64 &&
         id.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
}

}  // namespace

const char* error_slug(ErrorCode code) {
  switch (code) {
    case ErrorCode::kParse: return "parse";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    default: return error_code_name(code);
  }
}

std::string base64_encode(const uint8_t* data, size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (size_t i = 0; i < size; i += 3) {
    const uint32_t n = uint32_t(data[i]) << 16 | (i + 1 < size ? uint32_t(data[i + 1]) << 8 : 0u) |
                       (i + 2 < size ? uint32_t(data[i + 2]) : 0u);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < size ? kAlphabet[n & 63] : '=';
  }
  return out;
}

PreviewStreams::Session* PreviewStreams::find_or_make(const std::string& session, Status& status) {
  if (!valid_session(session)) {
    status = make_error(ErrorCode::kInvalidArgument, "a session is 1 to 64 of A-Z a-z 0-9 _ -", "session");
    return nullptr;
  }
  if (auto it = sessions_.find(session); it != sessions_.end()) return &it->second;
  if (sessions_.size() >= kMaxSessions) {
    status = make_error(ErrorCode::kOutOfMemory, fmt::format("{} previews are open already", kMaxSessions), "session");
    return nullptr;
  }
  return &sessions_[session];
}

float PreviewStreams::clock(const Session& s, Clock::time_point now) const {
  if (!s.playing) return s.start;
  const float elapsed = std::chrono::duration<float>(now - s.since).count() * s.scale;
  return std::fmod(s.start + elapsed, kStreamLoopSeconds);
}

Status PreviewStreams::set_document(const std::string& session, std::filesystem::path file, std::string document,
                                    uint64_t version, uint64_t seq) {
  std::lock_guard<std::mutex> lock(mutex_);
  Status status;
  Session* s = find_or_make(session, status);
  if (s == nullptr) return status;
  s->file = std::move(file);
  s->document = std::move(document);
  s->version = version;
  s->seq = std::max(s->seq, seq);
  ++s->generation;
  changed_.notify_all();
  return ok_status();
}

Status PreviewStreams::set_transport(const std::string& session, bool playing, float t, float scale, uint64_t seq) {
  if (!(scale > 0.0f && scale <= 16.0f))
    return make_error(ErrorCode::kInvalidArgument, "scale is a number in (0, 16]", "scale");
  if (!(t <= 600.0f)) return make_error(ErrorCode::kInvalidArgument, "t is a time of 0 .. 600 s", "t");
  std::lock_guard<std::mutex> lock(mutex_);
  Status status;
  Session* s = find_or_make(session, status);
  if (s == nullptr) return status;
  const Clock::time_point now = Clock::now();
  s->start = t >= 0.0f ? t : clock(*s, now);
  s->since = now;
  s->playing = playing;
  s->scale = scale;
  s->seq = std::max(s->seq, seq);
  ++s->generation;
  changed_.notify_all();
  return ok_status();
}

Status PreviewStreams::open(const std::string& session, uint32_t width, uint32_t height) {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t streaming = 0;
  for (const auto& [id, s] : sessions_) streaming += s.streaming;
  if (streaming >= kMaxStreams)
    return make_error(ErrorCode::kOutOfMemory, fmt::format("{} preview streams are open already", kMaxStreams),
                      "session");
  Status status;
  Session* s = find_or_make(session, status);
  if (s == nullptr) return status;
  if (s->streaming) return make_error(ErrorCode::kInvalidArgument, "this session has a stream open already", "session");
  s->streaming = true;
  s->width = width;
  s->height = height;
  s->rendered = 0;  // the new stream gets the current frame
  return ok_status();
}

void PreviewStreams::close(const std::string& session) {
  std::lock_guard<std::mutex> lock(mutex_);
  sessions_.erase(session);
}

bool PreviewStreams::next_event(const std::string& session, std::string& event) {
  event.clear();
  std::unique_lock<std::mutex> lock(mutex_);
  auto due = [&] {
    auto it = sessions_.find(session);
    if (it == sessions_.end()) return true;
    const Session& s = it->second;
    return !s.document.empty() && (s.rendered != s.generation || s.playing);
  };
  if (!changed_.wait_for(lock, std::chrono::seconds(1), [&] { return stopping_ || due(); })) return true;
  if (stopping_) return false;
  auto it = sessions_.find(session);
  if (it == sessions_.end()) return false;
  Session& s = it->second;
  const Clock::time_point now = Clock::now();
  const float t = clock(s, now);
  const std::filesystem::path file = s.file;
  const std::string document = s.document;
  const uint64_t version = s.version;
  const uint64_t seq = s.seq;
  const uint32_t width = s.width, height = s.height;
  s.rendered = s.generation;
  const bool playing = s.playing;
  lock.unlock();

  Result<PreviewFrame> f = preview_.frame(file, document, t, width, height);
  if (!f) {
    const json body = {
        {"seq", seq},
        {"version", version},
        {"error", {{"code", error_slug(f.error().code)}, {"message", f.error().message}, {"where", f.error().where}}}};
    event = "event: frame_error\ndata: " + body.dump() + "\n\n";
  } else {
    const json body = {{"seq", seq},
                       {"version", version},
                       {"t", t},
                       {"time", f->time},
                       {"alive", f->alive},
                       {"width", f->image.width},
                       {"height", f->image.height},
                       {"rgba", base64_encode(f->image.pixels.data(), f->image.pixels.size())}};
    event = "event: frame\ndata: " + body.dump() + "\n\n";
  }
  // Playing: the next frame waits its turn, so a fast device does not render faster than shown.
  if (playing) std::this_thread::sleep_until(now + kFrameInterval);
  return true;
}

void PreviewStreams::stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_ = true;
  changed_.notify_all();
}

}  // namespace mote::cli
