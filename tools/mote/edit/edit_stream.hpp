// Pushed preview frames for `mote edit` (docs/design/editor.md): the page opens one Server-Sent
// Events stream per preview (GET /api/stream?session=ID) and the server pushes the engine's
// frames down it as they render, instead of the page asking for each one. The page drives its
// session with two requests:
//   POST /api/preview?session=ID&path=REL&version=N[&seq=N]   body: the document being edited
//   POST /api/transport?session=ID&playing=0|1[&t=SECONDS][&scale=X][&seq=N]
// While playing, the session's clock runs in wall time times the scale (looping every
// kStreamLoopSeconds) and a frame is rendered for the clock's time as soon as the last one is out;
// paused, a frame is rendered only when the document or the time changes. Both requests may carry
// `seq`, the page's count of its changes, which every event echoes (the latest one applied when
// the frame began), so the page knows when its last change shows. Each event is one line of
// JSON: `frame` {seq, version, t, time, alive, width, height, rgba (base64 of the raw RGBA8
// rows)} or `frame_error` {seq, version, error{code, message, where}}; an idle stream gets a
// comment line every second, which is how a closed page is noticed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

#include "edit_preview.hpp"
#include "mote/result.hpp"

namespace mote::cli {

constexpr float kStreamLoopSeconds = 10.0f;
constexpr size_t kMaxStreams = 4;  // each open stream holds one of the server's worker threads

// An error's code as the API names it ("parse", "not_found", ...).
const char* error_slug(ErrorCode code);
// base64 (RFC 4648, with padding) of `size` bytes.
std::string base64_encode(const uint8_t* data, size_t size);

class PreviewStreams {
 public:
  explicit PreviewStreams(EditPreview& preview) : preview_(preview) {}

  // A session id is 1..64 of [A-Za-z0-9_-]. Errors: kInvalidArgument (a bad id, scale or time),
  // kOutOfMemory (as many sessions or streams as the server keeps are open: HTTP 503).
  Status set_document(const std::string& session, std::filesystem::path file, std::string document, uint64_t version,
                      uint64_t seq);
  // `t` < 0: keep the clock's current time (else 0 .. 600 s).
  Status set_transport(const std::string& session, bool playing, float t, float scale, uint64_t seq);
  // A stream opens on the session (made if new) and closes: open's errors as set_document's.
  Status open(const std::string& session, uint32_t width, uint32_t height);
  void close(const std::string& session);
  // The next event of the session's stream, waiting up to a second for there to be one ("" when
  // there is none: the caller sends a keep-alive). false when the server stops.
  bool next_event(const std::string& session, std::string& event);
  void stop();

 private:
  using Clock = std::chrono::steady_clock;
  struct Session {
    std::filesystem::path file;
    std::string document;
    uint64_t version = 0;
    uint64_t seq = 0;
    bool playing = false;
    float start = 0.0f;  // the clock's time at `since`
    float scale = 1.0f;
    Clock::time_point since = Clock::now();
    uint64_t generation = 1;  // bumped by every change
    uint64_t rendered = 0;    // the generation of the last frame sent
    uint32_t width = 480, height = 270;
    bool streaming = false;
  };
  Session* find_or_make(const std::string& session, Status& status);
  float clock(const Session& s, Clock::time_point now) const;

  EditPreview& preview_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Session> sessions_;
  bool stopping_ = false;
};

}  // namespace mote::cli
