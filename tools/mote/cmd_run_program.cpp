// `mote run-program FILE.mfx|FILE.masm --count N --executor reference|batch|gpu|gpu-fast|gpu-wide|gpu-compiled`:
// runs one section of a program over N particles on any executor and prints the resulting
// records as JSON, one object per particle (field name -> number or array, plus "killed").
//
// --fields init.json sets the starting values:
//   {"position": [0, 1, 0], "life": 2,            applied to every particle
//    "particles": [{"age": 0.5}, {"age": 1.0}],   optional, per particle (cycled), over the above
//    "emitter": {"strength": 3},                  the emitter's fields
//    "globals": {"gravity": [0, -9.8, 0]}}        the global fields (the program is linked to a
//                                                 section packed in import order)
// or a bare array of per-particle objects. Fields not given start at 0.
#include <CLI/CLI.hpp>
#include <bit>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/files.hpp"
#include "mote/gpu_executor.hpp"
#include "mote/link.hpp"
#include "mote/verifier.hpp"
#include "mote/vm.hpp"

namespace mote::cli {

namespace {

// An executor and, for the GPU ones, the Context it runs on (declared first: destroyed last).
struct CliExecutor {
  std::unique_ptr<Context> context;
  std::unique_ptr<Executor> executor;
};

// The executors `run-program` knows by name. The GPU ones create a Context (MOTE_DEVICE chooses
// its device, MOTE_VALIDATION=1 validates it); "gpu" picks the interpreter by register count,
// "gpu-compiled" compiles the section to its own kernel. The interpreters run without opcode
// counting (run-program prints records and kill flags only), so the fast one runs the section
// with its moves folded.
Result<CliExecutor> make_cli_executor(std::string_view name) {
  if (name == "reference") return CliExecutor{nullptr, make_reference_executor()};
  if (name == "batch") return CliExecutor{nullptr, make_batch_executor()};
  GpuExecutorKind kind = GpuExecutorKind::kInterpreter;
  if (name == "gpu-fast") kind = GpuExecutorKind::kFastInterpreter;
  else if (name == "gpu-wide") kind = GpuExecutorKind::kWideInterpreter;
  else if (name == "gpu-compiled") kind = GpuExecutorKind::kCompiled;
  else if (name != "gpu")
    return make_error(ErrorCode::kInvalidArgument, "unknown executor '" + std::string(name) +
                                                       "' (reference, batch, gpu, gpu-fast, gpu-wide, gpu-compiled)");
  CliExecutor made;
  MOTE_TRY_ASSIGN(made.context, Context::create());
  made.executor = make_gpu_executor(*made.context, {.kind = kind, .count_ops = false});
  return made;
}

using nlohmann::json;

struct Options {
  std::string input;
  uint32_t count = 1;
  std::string executor = "reference";
  std::string section = "update";
  std::string fields;
  uint32_t seed = 0;
  float dt = 1.0f / 60.0f;
  float time = 0.0f;
};

int fail(const std::string& message) {
  std::fprintf(stderr, "mote run-program: %s\n", message.c_str());
  return kExitRefused;
}

// Writes a JSON number or array of `width` numbers as f32 bits at dst.
Status put_value(const json& value, uint32_t width, uint32_t* dst, const std::string& name) {
  auto as_float = [&](const json& v) -> Result<float> {
    if (!v.is_number()) return make_error(ErrorCode::kParse, "value of '" + name + "' is not a number");
    return v.get<float>();
  };
  if (value.is_array()) {
    if (value.size() != width)
      return make_error(ErrorCode::kParse, "'" + name + "' has " + std::to_string(value.size()) +
                                               " components, the field has " + std::to_string(width));
    for (uint32_t c = 0; c < width; ++c) {
      MOTE_TRY_ASSIGN(const float f, as_float(value[c]));
      dst[c] = std::bit_cast<uint32_t>(f);
    }
    return ok_status();
  }
  MOTE_TRY_ASSIGN(const float f, as_float(value));
  for (uint32_t c = 0; c < width; ++c) dst[c] = std::bit_cast<uint32_t>(f);  // a scalar splats
  return ok_status();
}

// Applies the keys of `object` naming fields of `decls` (packed from `start`) to `block`.
// Unknown keys are errors except those in `skip`.
template <typename Decl>
Status apply_fields(const json& object, const std::vector<Decl>& decls, uint32_t start, uint32_t* block,
                    std::initializer_list<std::string_view> skip) {
  if (!object.is_object()) return make_error(ErrorCode::kParse, "expected a JSON object of field values");
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool skipped = false;
    for (std::string_view s : skip) skipped = skipped || it.key() == s;
    if (skipped) continue;
    uint32_t offset = start;
    bool found = false;
    for (const Decl& d : decls) {
      if (d.name == it.key()) {
        MOTE_TRY(put_value(it.value(), d.width, block + offset, d.name));
        found = true;
        break;
      }
      offset += d.width;
    }
    if (!found) return make_error(ErrorCode::kNotFound, "no field named '" + it.key() + "'");
  }
  return ok_status();
}

json field_value(const uint32_t* words, uint32_t width) {
  auto num = [](uint32_t bits) -> json {
    const float f = std::bit_cast<float>(bits);
    return std::isfinite(f) ? json(f) : json(nullptr);
  };
  if (width == 1) return num(words[0]);
  json a = json::array();
  for (uint32_t c = 0; c < width; ++c) a.push_back(num(words[c]));
  return a;
}

// The records run-program holds (the input and the executor's output, each count x record
// words): a bound on what --count may ask for with a wide record.
constexpr uint64_t kMaxRecordBytes = uint64_t(512) << 20;

// `[` + each particle's object as json::array().dump(2) would indent it + `]`, written as it
// goes: the document of 16M particles is gigabytes, the records it comes from are not.
class StreamedArray {
 public:
  void add(const json& element) {
    buffer_ += count_++ ? ",\n  " : "[\n  ";
    const std::string text = element.dump(2);
    for (char c : text) {
      buffer_ += c;
      if (c == '\n') buffer_ += "  ";
    }
    if (buffer_.size() >= (1u << 20)) flush();
  }
  bool finish() {
    buffer_ += count_ ? "\n]\n" : "[]\n";
    return flush();
  }

 private:
  bool flush() {
    ok_ = ok_ && std::fwrite(buffer_.data(), 1, buffer_.size(), stdout) == buffer_.size();
    buffer_.clear();
    return ok_ && std::fflush(stdout) == 0;
  }
  std::string buffer_;
  uint64_t count_ = 0;
  bool ok_ = true;
};

int run(const Options& o) {
  Result<Program> loaded = load_program_file(o.input);
  if (!loaded) return report_error("run-program", o.input, loaded.error());
  Program program = std::move(loaded).value();
  // Verified before anything is sized from it: an unverified width (4294967295) wraps the record
  // size and would send the field writes below past the records.
  if (Status s = verify_program(program); !s) return fail(o.input + ": " + s.error().to_string());
  const uint32_t rw = vm_particle_record_words(program);
  if (uint64_t(o.count) * rw * 4 > kMaxRecordBytes)
    return fail("--count " + std::to_string(o.count) + " with records of " + std::to_string(rw) + " words needs " +
                std::to_string(uint64_t(o.count) * rw * 4) + " bytes of records; the limit is " +
                std::to_string(kMaxRecordBytes) + " bytes (at most " + std::to_string(kMaxRecordBytes / (rw * 4)) +
                " particles of this program)");
  Result<CliExecutor> made = make_cli_executor(o.executor);
  if (!made) {
    if (made.error().code == ErrorCode::kInvalidArgument) return usage_error("run-program", made.error().message);
    return report_error("run-program", "", made.error(), kExitSystem);  // no device
  }
  const CliExecutor executor = std::move(made).value();

  json init = json::object();
  if (!o.fields.empty()) {
    Result<std::string> text = read_text_file(o.fields);
    if (!text) return report_error("run-program", o.fields, text.error());
    init = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (init.is_discarded()) return fail(o.fields + ": not valid JSON");
    if (init.is_array()) init = json{{"particles", init}};
    if (!init.is_object()) return fail(o.fields + ": expected an object or an array");
  }

  // Globals: packed in import order, then the program is linked to that section.
  std::vector<uint32_t> offsets;
  uint32_t global_words = 0;
  for (const GlobalImport& g : program.global_imports) {
    offsets.push_back(global_words);
    global_words += g.width;
  }
  std::vector<uint32_t> globals(global_words, 0);
  if (init.contains("globals")) {
    if (Status s = apply_fields(init["globals"], program.global_imports, 0, globals.data(), {}); !s)
      return report_error("run-program", o.fields, Error{s.error().code, s.error().message, "/globals"});
  }
  Result<Program> linked = link_globals(program, offsets);
  if (!linked) return report_error("run-program", o.input, linked.error());

  RunInput in;
  in.program = &linked.value();
  in.section = o.section == "init" ? Section::kInit : o.section == "eval" ? Section::kEval : Section::kUpdate;
  in.count = o.count;
  in.records.assign(size_t(o.count) * rw, 0);
  in.emitter.dt = o.dt;
  in.emitter.time = o.time;
  in.emitter.seed = o.seed;
  in.rng_base = o.seed;
  in.global_fields = std::move(globals);
  in.emitter_fields.assign(vm_emitter_field_words(program), 0);
  if (init.contains("emitter")) {
    if (Status s = apply_fields(init["emitter"], program.emitter_fields, 0, in.emitter_fields.data(), {}); !s)
      return report_error("run-program", o.fields, Error{s.error().code, s.error().message, "/emitter"});
  }
  const json* per_particle = init.contains("particles") ? &init["particles"] : nullptr;
  if (per_particle && (!per_particle->is_array() || per_particle->empty()))
    return fail("\"particles\" must be a non-empty array of objects");
  for (uint32_t i = 0; i < o.count; ++i) {
    uint32_t* record = in.records.data() + size_t(i) * rw;
    if (Status s = apply_fields(init, program.particle_fields, 1, record, {"particles", "emitter", "globals"}); !s)
      return report_error("run-program", o.fields, s.error());
    if (per_particle) {
      if (Status s = apply_fields((*per_particle)[i % per_particle->size()], program.particle_fields, 1, record, {});
          !s)
        return report_error("run-program", o.fields,
                            Error{s.error().code, s.error().message,
                                  "/particles/" + std::to_string(i % per_particle->size())});
    }
  }

  Result<RunOutput> out = executor.executor->run(in);
  if (!out) return report_error("run-program", o.input, out.error());

  StreamedArray result;
  for (uint32_t i = 0; i < o.count; ++i) {
    const uint32_t* record = out->records.data() + size_t(i) * rw;
    json particle = json::object();
    uint32_t offset = 1;
    for (const FieldDecl& f : program.particle_fields) {
      particle[f.name] = field_value(record + offset, f.width);
      offset += f.width;
    }
    particle["killed"] = out->killed[i] != 0;
    result.add(particle);
  }
  if (!result.finish()) return fail("cannot write the records to stdout");
  return 0;
}

}  // namespace

void add_run_program_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("run-program",
                                     "Run a program section over N particles and print the records as JSON");
  cmd->add_option("input", o->input, "the .mfx or .masm file")->required();
  cmd->add_option("-n,--count", o->count, "particles to run")->check(CLI::Range(1u, 1u << 24));
  cmd->add_option("--executor", o->executor, "reference | batch | gpu | gpu-fast | gpu-wide | gpu-compiled");
  cmd->add_option("--section", o->section, "init | update | eval")->check(CLI::IsMember({"init", "update", "eval"}));
  cmd->add_option("--fields", o->fields, "JSON file of starting field values");
  cmd->add_option("--seed", o->seed, "RNG base and emitter seed");
  cmd->add_option("--dt", o->dt, "DT builtin, seconds");
  cmd->add_option("--time", o->time, "TIME builtin, seconds");
  cmd->callback([&exit_code, o] { exit_code = run(*o); });
}

}  // namespace mote::cli
