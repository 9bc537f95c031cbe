// compile_effect: [expand modules ->] load -> type -> lower (fold, CSE) -> DCE -> global imports -> constants ->
// registers -> encode -> verify. Each step is its own file; this one only sequences them.
#include <bit>

#include "core/alloc_guard.hpp"
#include "core/json_reader.hpp"
#include "document.hpp"
#include "graph_check.hpp"
#include "lower_nodes.hpp"
#include "modules.hpp"
#include "mote/effect.hpp"
#include "mote/verifier.hpp"
#include "passes.hpp"

namespace mote {

using namespace graph;

namespace {

Result<CompiledEffect> compile_document(const EffectDocument& doc) {
  MOTE_TRY_ASSIGN(TypedGraph init_graph, check_graph(doc.init, Section::kInit, doc, "/init"));
  MOTE_TRY_ASSIGN(TypedGraph update_graph, check_graph(doc.update, Section::kUpdate, doc, "/update"));

  IrFunction init_fn, update_fn;
  {
    IrBuilder b(init_fn);
    MOTE_TRY(lower_graph(init_graph, b, "/init"));
  }
  {
    IrBuilder b(update_fn);
    MOTE_TRY(lower_graph(update_graph, b, "/update"));
  }
  eliminate_dead_code(init_fn);
  eliminate_dead_code(update_fn);

  CompiledEffect out;
  out.name = doc.name;
  out.emission = doc.emission;
  out.render = doc.render;
  out.event_outputs = doc.event_outputs;
  out.vector_fields = doc.vector_fields;
  Program& p = out.program;
  for (const DocField& f : doc.particle_fields) p.particle_fields.push_back({f.name, f.width});
  for (const DocField& f : doc.emitter_fields) {
    p.emitter_fields.push_back({f.name, f.width});
    for (float v : f.values) out.emitter_defaults.push_back(std::bit_cast<uint32_t>(v));
  }
  // Global imports in order of first read (INIT, then UPDATE), after dead code is gone.
  std::vector<uint32_t> import_of(doc.global_fields.size(), kNoValue);
  for (const IrFunction* fn : {&init_fn, &update_fn})
    for (const IrInst& ins : fn->code) {
      if (ins.pending != Pending::kGlobal) continue;
      const uint32_t declared = ins.src[0].word & 0xFFFFu;
      if (import_of[declared] != kNoValue) continue;
      import_of[declared] = uint32_t(p.global_imports.size());
      p.global_imports.push_back({doc.global_fields[declared].name, doc.global_fields[declared].width});
      out.globals.push_back({doc.global_fields[declared].name, doc.global_fields[declared].values});
    }
  IrFunction* fns[] = {&init_fn, &update_fn};
  MOTE_TRY_ASSIGN(p.constants, intern_constants(fns));
  MOTE_TRY_ASSIGN(Allocation init_alloc, allocate_registers(init_fn));
  MOTE_TRY_ASSIGN(Allocation update_alloc, allocate_registers(update_fn));
  p.register_count = std::max(init_alloc.register_count, update_alloc.register_count);
  MOTE_TRY_ASSIGN(p.init, encode_function(init_fn, init_alloc, import_of));
  MOTE_TRY_ASSIGN(p.update, encode_function(update_fn, update_alloc, import_of));
  if (p.init.size() > 4096 || p.update.size() > 4096)
    return make_error(ErrorCode::kInvalidArgument, "a section compiles to more than 4096 instructions",
                      p.init.size() > 4096 ? "/init" : "/update");
  if (Status s = verify_program(p); !s.ok()) {
    Error e = s.take_error();
    if (e.code == ErrorCode::kOutOfMemory) return e;  // exhaustion, not a compiler bug
    return make_error(ErrorCode::kInternal, "the compiled program does not verify: " + e.to_string(), "/");
  }
  return out;
}

// [expand ->] load -> compile; a module document's errors are pointed back into it.
Result<CompiledEffect> compile_effect_body(std::string_view json_text) {
  MOTE_TRY_ASSIGN(const nlohmann::json j, core::parse_json(json_text));
  if (!is_module_document(j)) {
    MOTE_TRY_ASSIGN(EffectDocument doc, load_effect_document(j));
    return compile_document(doc);
  }
  MOTE_TRY_ASSIGN(ExpandedDocument expanded, expand_module_document(j));
  // Every later error is about the expansion: point it back at the module or raw node it came from.
  Result<EffectDocument> doc = load_effect_document(expanded.document);
  Result<CompiledEffect> out = doc.ok() ? compile_document(doc.value()) : Result<CompiledEffect>(doc.error());
  if (!out.ok()) {
    Error e = out.take_error();
    e.where = expanded.origins.translate(e.where);
    return e;
  }
  return out;
}

}  // namespace

Result<CompiledEffect> compile_effect(std::string_view json_text) {
  return core::guard_allocation("compile_effect", [&] { return compile_effect_body(json_text); });
}

Result<std::string> expand_effect_document(std::string_view json_text) {
  return core::guard_allocation("expand_effect_document", [&]() -> Result<std::string> {
    MOTE_TRY_ASSIGN(const nlohmann::json j, core::parse_json(json_text));
    if (!is_module_document(j)) return std::string(json_text);
    MOTE_TRY_ASSIGN(ExpandedDocument expanded, expand_module_document(j));
    return expanded.document.dump(2) + "\n";
  });
}

}  // namespace mote
