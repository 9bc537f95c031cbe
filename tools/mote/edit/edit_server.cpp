// The editor's HTTP server (edit_server.hpp). Every handler answers with a value: a refused path,
// a malformed body or a document that does not compile is a JSON error, never an exception out of
// the handler, so one bad request leaves the server serving the next.
#include "edit_server.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "edit_preview.hpp"
#include "edit_stream.hpp"
#include "mote/effect.hpp"
#include "mote/files.hpp"
#include "mote/version.hpp"

namespace mote::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr size_t kMaxBody = size_t(8) << 20;  // a document, or a file saved
constexpr size_t kMaxListed = 2000;           // files /api/files lists at most
constexpr int kMaxDepth = 4;

void send_error(httplib::Response& res, int status, std::string_view code, std::string_view message,
                std::string_view where = {}) {
  res.status = status;
  const json body = {{"error", {{"code", code}, {"message", message}, {"where", where}}}};
  res.set_content(body.dump(), "application/json");
}

void send_error(httplib::Response& res, int status, const Error& error) {
  send_error(res, status, error_slug(error.code), error.message, error.where);
}

void send_json(httplib::Response& res, const json& body) { res.set_content(body.dump(), "application/json"); }

// `relative` inside `root` (canonical): not absolute, not leaving it by ".." or a symbolic link,
// and a .json file. The refusal is the response to send.
struct Resolved {
  fs::path path;
  int status = 200;
  std::string message;
};

Resolved resolve_inside(const fs::path& root, const std::string& relative) {
  if (relative.empty()) return {{}, 400, "the request names no path (?path=)"};
  if (relative.find('\0') != std::string::npos) return {{}, 400, "the path holds a NUL character"};
  const fs::path asked(relative);
  if (asked.is_absolute() || asked.has_root_name() || asked.has_root_directory())
    return {{}, 403, "absolute paths are refused: name a file inside the folder mote edit was started in"};
  std::error_code ec;
  const fs::path full = fs::weakly_canonical(root / asked, ec);
  if (ec) return {{}, 403, "the path cannot be resolved: " + ec.message()};
  const auto [root_end, full_end] = std::mismatch(root.begin(), root.end(), full.begin(), full.end());
  if (root_end != root.end()) return {{}, 403, "the path leaves the folder mote edit was started in"};
  if (full.extension() != ".json") return {{}, 403, "only .json files are read or written"};
  return {full, 200, {}};
}

std::string relative_name(const fs::path& root, const fs::path& full) {
  return fs::relative(full, root).generic_string();
}

// "effect" (an effect document: modules or a node graph), "scene" or "json".
std::string file_kind(const fs::path& path) {
  Result<std::string> text = read_text_file(path, size_t(1) << 20);
  if (!text) return "json";
  const json j = json::parse(*text, nullptr, false);
  if (!j.is_object()) return "json";
  if (j.contains("modules") || j.contains("update") || j.contains("init")) return "effect";
  if (j.contains("emitters")) return "scene";
  return "json";
}

json list_files(const fs::path& root) {
  json files = json::array();
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  size_t seen = 0;
  for (; !ec && it != end && seen < kMaxListed; it.increment(ec), ++seen) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    const bool hidden = !name.empty() && name[0] == '.';
    if (it->is_directory(ec)) {
      // Hidden folders, npm's and build trees hold no documents to edit.
      if (hidden || name == "node_modules" || it.depth() >= kMaxDepth) it.disable_recursion_pending();
      continue;
    }
    if (hidden || p.extension() != ".json" || !it->is_regular_file(ec)) continue;
    files.push_back({{"path", relative_name(root, p)}, {"kind", file_kind(p)}});
  }
  std::sort(files.begin(), files.end(),
            [](const json& a, const json& b) { return a["path"].get<std::string>() < b["path"].get<std::string>(); });
  return files;
}

// A body that must be a JSON document: false after answering 400 with the strict reader's
// error (its pointer and byte) when it is not.
bool require_json_body(const httplib::Request& req, httplib::Response& res) {
  if (json::accept(req.body)) return true;
  // The effect compiler's reader says where, in the one error style.
  Result<CompiledEffect> refused = compile_effect(req.body);
  if (refused.ok()) return true;
  send_error(res, 400, refused.error());
  return false;
}

float float_param(const httplib::Request& req, const char* name, float fallback, bool& ok) {
  if (!req.has_param(name)) return fallback;
  const std::string text = req.get_param_value(name);
  char* end = nullptr;
  const float v = std::strtof(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) ok = false;
  return v;
}

}  // namespace

struct EditServer::State {
  EditServerOptions options;
  httplib::Server server;
  EditPreview preview;
  PreviewStreams streams{preview};
  int port = 0;

  explicit State(const EditServerOptions& o) : options(o), preview(o.root, o.device) {}
  void routes();
  void serve_page(const std::string& name, httplib::Response& res);
  void compile(const httplib::Request& req, httplib::Response& res);
  void frame(const httplib::Request& req, httplib::Response& res);
  void stream(const httplib::Request& req, httplib::Response& res);
  void set_preview(const httplib::Request& req, httplib::Response& res);
  void transport(const httplib::Request& req, httplib::Response& res);
  void read_file(const httplib::Request& req, httplib::Response& res);
  void write_file(const httplib::Request& req, httplib::Response& res);
};

void EditServer::State::serve_page(const std::string& name, httplib::Response& res) {
  // Only the page's own files, by plain name: the page folder is not browsable.
  const bool plain = !name.empty() &&
                     name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.-") == std::string::npos &&
                     name[0] != '.';
  if (!plain) return send_error(res, 404, "not_found", "no such page file");
  Result<std::vector<uint8_t>> bytes = read_binary_file(options.editor_dir / name, kMaxBody * 4);
  if (!bytes) return send_error(res, 404, "not_found", "no such page file: " + name);
  const fs::path ext = fs::path(name).extension();
  const char* type = ext == ".html"  ? "text/html; charset=utf-8"
                     : ext == ".js"  ? "text/javascript; charset=utf-8"
                     : ext == ".css" ? "text/css; charset=utf-8"
                     : ext == ".png" ? "image/png"
                                     : "application/octet-stream";
  res.set_content(reinterpret_cast<const char*>(bytes->data()), bytes->size(), type);
}

void EditServer::State::read_file(const httplib::Request& req, httplib::Response& res) {
  const Resolved r = resolve_inside(options.root, req.get_param_value("path"));
  if (r.status != 200) return send_error(res, r.status, r.status == 403 ? "forbidden" : "bad_request", r.message);
  Result<std::string> text = read_text_file(r.path, kMaxBody);
  if (!text) return send_error(res, text.error().code == ErrorCode::kNotFound ? 404 : 500, text.error());
  send_json(res, {{"path", relative_name(options.root, r.path)}, {"text", *text}});
}

void EditServer::State::write_file(const httplib::Request& req, httplib::Response& res) {
  const Resolved r = resolve_inside(options.root, req.get_param_value("path"));
  if (r.status != 200) return send_error(res, r.status, r.status == 403 ? "forbidden" : "bad_request", r.message);
  if (!require_json_body(req, res)) return;
  if (Status s = write_text_file(r.path, req.body); !s) return send_error(res, 500, s.error());
  send_json(res, {{"ok", true}, {"path", relative_name(options.root, r.path)}, {"bytes", req.body.size()}});
}

void EditServer::State::compile(const httplib::Request& req, httplib::Response& res) {
  if (!require_json_body(req, res)) return;
  json out = {{"ok", true}};
  // The node graph the modules expand to, for the graph view, even when the compiler refuses it.
  if (Result<std::string> expanded = expand_effect_document(req.body); expanded.ok())
    out["expanded"] = json::parse(*expanded, nullptr, false);
  Result<CompiledEffect> compiled = compile_effect(req.body);
  if (!compiled) {
    out["ok"] = false;
    out["error"] = {{"code", error_slug(compiled.error().code)},
                    {"message", compiled.error().message},
                    {"where", compiled.error().where}};
  } else {
    out["capacity"] = compiled->emission.capacity_hint;
    out["rate"] = compiled->emission.rate;
  }
  send_json(res, out);
}

void EditServer::State::frame(const httplib::Request& req, httplib::Response& res) {
  const Resolved r = resolve_inside(options.root, req.get_param_value("path"));
  if (r.status != 200) return send_error(res, r.status, r.status == 403 ? "forbidden" : "bad_request", r.message);
  if (!require_json_body(req, res)) return;
  bool ok = true;
  const float t = float_param(req, "t", 0.0f, ok);
  const float w = float_param(req, "w", 480.0f, ok);
  const float h = float_param(req, "h", 270.0f, ok);
  if (!ok || w < 1.0f || h < 1.0f || w > 1e5f || h > 1e5f)
    return send_error(res, 400, "bad_request", "t, w and h must be numbers (w and h positive)");
  Result<PreviewFrame> f = preview.frame(r.path, req.body, t, uint32_t(w), uint32_t(h));
  if (!f) {
    const ErrorCode code = f.error().code;
    const int status = code == ErrorCode::kVulkan || code == ErrorCode::kUnsupported || code == ErrorCode::kOutOfMemory
                           ? 503
                           : 400;
    return send_error(res, status, f.error());
  }
  res.set_header("X-Mote-Width", std::to_string(f->image.width));
  res.set_header("X-Mote-Height", std::to_string(f->image.height));
  res.set_header("X-Mote-Time", fmt::format("{:.4f}", f->time));
  res.set_header("X-Mote-Alive", std::to_string(f->alive));
  res.set_content(reinterpret_cast<const char*>(f->image.pixels.data()), f->image.pixels.size(),
                  "application/octet-stream");
}

int status_of(const Error& e) { return e.code == ErrorCode::kOutOfMemory ? 503 : 400; }

// GET /api/stream?session=&w=&h=: Server-Sent Events, one frame (or error) an event
// (edit_stream.hpp), until the page goes or the server stops.
void EditServer::State::stream(const httplib::Request& req, httplib::Response& res) {
  bool ok = true;
  const float w = float_param(req, "w", 480.0f, ok);
  const float h = float_param(req, "h", 270.0f, ok);
  if (!ok || w < 64.0f || h < 64.0f || w > 1920.0f || h > 1080.0f)
    return send_error(res, 400, "bad_request", "w and h are numbers, 64 .. 1920 x 64 .. 1080");
  const std::string session = req.get_param_value("session");
  if (Status s = streams.open(session, uint32_t(w), uint32_t(h)); !s)
    return send_error(res, status_of(s.error()), s.error());
  res.set_header("Cache-Control", "no-store");
  res.set_chunked_content_provider(
      "text/event-stream",
      [this, session](size_t, httplib::DataSink& sink) {
        std::string event;
        if (!streams.next_event(session, event)) return false;
        if (event.empty()) event = ": idle\n\n";  // a keep-alive: a closed page fails this write
        return sink.write(event.data(), event.size());
      },
      [this, session](bool) { streams.close(session); });
}

// POST /api/preview?session=&path=&version=[&seq=]: the document the session's stream previews.
void EditServer::State::set_preview(const httplib::Request& req, httplib::Response& res) {
  const Resolved r = resolve_inside(options.root, req.get_param_value("path"));
  if (r.status != 200) return send_error(res, r.status, r.status == 403 ? "forbidden" : "bad_request", r.message);
  if (!require_json_body(req, res)) return;
  bool ok = true;
  const float version = float_param(req, "version", 0.0f, ok);
  const float seq = float_param(req, "seq", 0.0f, ok);
  if (!ok || !(version >= 0.0f && version < 1e15f && seq >= 0.0f && seq < 1e15f))
    return send_error(res, 400, "bad_request", "version and seq are counts");
  if (Status s = streams.set_document(req.get_param_value("session"), r.path, req.body, uint64_t(version),
                                      uint64_t(seq));
      !s)
    return send_error(res, status_of(s.error()), s.error());
  send_json(res, {{"ok", true}});
}

// POST /api/transport?session=&playing=0|1[&t=][&scale=][&seq=]: play / pause, seek, time scale.
void EditServer::State::transport(const httplib::Request& req, httplib::Response& res) {
  const std::string playing = req.get_param_value("playing");
  if (playing != "0" && playing != "1") return send_error(res, 400, "bad_request", "playing is 0 or 1");
  bool ok = true;
  const float t = req.has_param("t") ? float_param(req, "t", 0.0f, ok) : -1.0f;
  const float scale = float_param(req, "scale", 1.0f, ok);
  const float seq = float_param(req, "seq", 0.0f, ok);
  if (!ok || (req.has_param("t") && !(t >= 0.0f)) || !(seq >= 0.0f && seq < 1e15f))
    return send_error(res, 400, "bad_request", "t, scale and seq are numbers, t and seq at least 0");
  if (Status s = streams.set_transport(req.get_param_value("session"), playing == "1", t, scale, uint64_t(seq)); !s)
    return send_error(res, status_of(s.error()), s.error());
  send_json(res, {{"ok", true}});
}

// The request is for this server by name: a page elsewhere whose host name was made to resolve
// to 127.0.0.1 (DNS rebinding) sends its own name, and is refused before any route.
bool own_host(const httplib::Request& req, int port) {
  const std::string host = req.get_header_value("Host");
  for (const char* name : {"127.0.0.1", "localhost"})
    if (host == fmt::format("{}:{}", name, port) || host == name) return true;
  return false;
}

void EditServer::State::routes() {
  server.set_payload_max_length(kMaxBody);
  // SO_REUSEADDR alone: the library's default also sets SO_REUSEPORT, which lets a second editor
  // bind the same port and take half the first one's requests.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (own_host(req, port)) return httplib::Server::HandlerResponse::Unhandled;
    send_error(res, 403, "forbidden", "the Host header names another server: mote edit answers 127.0.0.1 only");
    return httplib::Server::HandlerResponse::Handled;
  });
  server.Get("/", [this](const httplib::Request&, httplib::Response& res) { serve_page("index.html", res); });
  server.Get(R"(/page/([^/]+))",
             [this](const httplib::Request& req, httplib::Response& res) { serve_page(req.matches[1], res); });
  server.Get("/api/info", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, {{"root", options.root.string()},
                    {"initial", options.initial},
                    {"device", preview.device_name()},
                    {"version", kVersionString}});
  });
  server.Get("/api/files", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, {{"files", list_files(options.root)}});
  });
  server.Get("/api/file", [this](const httplib::Request& req, httplib::Response& res) { read_file(req, res); });
  server.Put("/api/file", [this](const httplib::Request& req, httplib::Response& res) { write_file(req, res); });
  server.Post("/api/compile", [this](const httplib::Request& req, httplib::Response& res) { compile(req, res); });
  server.Post("/api/frame", [this](const httplib::Request& req, httplib::Response& res) { frame(req, res); });
  server.Get("/api/stream", [this](const httplib::Request& req, httplib::Response& res) { stream(req, res); });
  server.Post("/api/preview", [this](const httplib::Request& req, httplib::Response& res) { set_preview(req, res); });
  server.Post("/api/transport", [this](const httplib::Request& req, httplib::Response& res) { transport(req, res); });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    send_error(res, 500, "internal", what);
  });
  // Unknown routes and the library's own refusals (a body over the limit) in the same JSON form;
  // a response that already says what is wrong is kept.
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    send_error(res, res.status, res.status == 404 ? "not_found" : "bad_request",
               res.status == 404 ? "no such route" : fmt::format("the request was refused (HTTP {})", res.status));
  });
}

EditServer::EditServer(std::unique_ptr<State> state) : state_(std::move(state)) {}
EditServer::~EditServer() = default;

Result<std::unique_ptr<EditServer>> EditServer::create(const EditServerOptions& options) {
  std::error_code ec;
  EditServerOptions o = options;
  o.root = fs::canonical(options.root, ec);
  if (ec || !fs::is_directory(o.root))
    return make_error(ErrorCode::kNotFound, "the folder to serve does not exist", options.root.string());
  if (!fs::is_regular_file(o.editor_dir / "index.html"))
    return make_error(ErrorCode::kNotFound,
                      "the editor page is not built (scripts/setup.sh installs its npm packages; then build the "
                      "mote_editor target)",
                      o.editor_dir.string());
  auto state = std::make_unique<State>(o);
  state->routes();
  // 127.0.0.1 only: the editor reads and writes files; nothing off this machine may reach it.
  if (o.port == 0) state->port = state->server.bind_to_any_port("127.0.0.1");
  else if (state->server.bind_to_port("127.0.0.1", o.port)) state->port = o.port;
  if (state->port <= 0)
    return make_error(ErrorCode::kIo, fmt::format("cannot listen on 127.0.0.1:{}", o.port), "--port");
  return std::unique_ptr<EditServer>(new EditServer(std::move(state)));
}

int EditServer::port() const { return state_->port; }

Status EditServer::run() {
  if (!state_->server.listen_after_bind()) return make_error(ErrorCode::kIo, "the server stopped listening");
  return ok_status();
}

void EditServer::stop() {
  state_->streams.stop();  // the open streams end, so their worker threads are free to join
  state_->server.stop();
}

}  // namespace mote::cli
