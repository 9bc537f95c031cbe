// Shared helpers of the graph tests: reading files, a minimal effect document around graphs.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

inline std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A document with the standard test layout and the given init/update node arrays.
inline std::string effect_with(const std::string& init_nodes, const std::string& update_nodes,
                               const std::string& extra = "") {
  return std::string(
             R"({"name": "t", "particle_fields": [{"name": "position", "width": 3}, {"name": "velocity", "width": 3},
    {"name": "age", "width": 1}, {"name": "lifetime", "width": 1}, {"name": "color", "width": 4}],
    "emitter_fields": [{"name": "speed", "width": 1, "default": [2.5]}],
    "global_fields": [{"name": "gust", "width": 3, "preview": [1, 0, 0]}, {"name": "unused", "width": 1, "preview": [0]}],)") +
         extra + R"("init": {"nodes": [)" + init_nodes + R"(]}, "update": {"nodes": [)" + update_nodes + "]}}";
}
