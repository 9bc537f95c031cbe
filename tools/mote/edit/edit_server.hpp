// The HTTP server behind `mote edit` (docs/design/editor.md): cpp-httplib (Debian's
// libcpp-httplib-dev) bound to 127.0.0.1, serving the built editor page and a JSON API over the
// files of one folder, the start folder:
//   GET  /api/info                      the folder, the effect opened first, the device
//   GET  /api/files                     the *.json files under the folder
//   GET  /api/file?path=REL             one file's text
//   PUT  /api/file?path=REL             replaces it (the body must be JSON)
//   POST /api/compile                   body: an effect document -> {ok, error{code, message, where}, expanded}
//   POST /api/frame?path=REL&t=&w=&h=   body: an effect document -> the preview frame, raw RGBA8
//   GET  /api/stream?session=ID&w=&h=   the preview frames pushed as they render (Server-Sent
//                                       Events, edit_stream.hpp), driven by
//   POST /api/preview?session=ID&path=REL&version=N   body: the document previewed, and
//   POST /api/transport?session=ID&playing=0|1[&t=][&scale=]
// A path outside the folder (absolute, "..", a symbolic link out) or not a .json file is refused
// with 403; a body that is not JSON with 400 and the strict reader's pointer; every error is
// {"error": {code, message, where}}, and the server keeps serving after any of them.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "mote/result.hpp"

namespace mote::cli {

struct EditServerOptions {
  std::filesystem::path root;        // the folder served (made canonical)
  std::filesystem::path editor_dir;  // the built page: index.html, app.js, app.css
  std::string initial;               // the effect opened first, relative to root ("" none)
  std::string device;                // ContextOptions::device
  int port = 0;                      // 0: a free port
};

class EditServer {
 public:
  // Binds 127.0.0.1:port. Errors: kNotFound (root or the page missing), kIo (the port).
  static Result<std::unique_ptr<EditServer>> create(const EditServerOptions& options);
  ~EditServer();
  EditServer(const EditServer&) = delete;
  EditServer& operator=(const EditServer&) = delete;

  int port() const;
  // Serves until stop() (from another thread).
  Status run();
  void stop();

 private:
  struct State;
  explicit EditServer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace mote::cli
