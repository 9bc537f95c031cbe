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

// The document's graphs with the sections they compile to and their pointers: INIT and UPDATE
// for a stateful effect, EVAL alone for a stateless one (the other sections stay empty).
struct SectionGraph {
  const DocGraph* graph;
  Section section;
  const char* where;
};
std::vector<SectionGraph> section_graphs(const EffectDocument& doc) {
  if (doc.stateless) return {{&doc.eval, Section::kEval, "/eval"}};
  return {{&doc.init, Section::kInit, "/init"}, {&doc.update, Section::kUpdate, "/update"}};
}

Result<CompiledEffect> compile_document(const EffectDocument& doc) {
  const std::vector<SectionGraph> graphs = section_graphs(doc);
  std::vector<IrFunction> fns(graphs.size());
  for (size_t g = 0; g < graphs.size(); ++g) {
    MOTE_TRY_ASSIGN(TypedGraph typed, check_graph(*graphs[g].graph, graphs[g].section, doc, graphs[g].where));
    IrBuilder b(fns[g]);
    MOTE_TRY(lower_graph(typed, b, graphs[g].where));
  }
  for (IrFunction& fn : fns) eliminate_dead_code(fn);

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
  // Global imports in order of first read (INIT, then UPDATE; or EVAL), after dead code is gone.
  std::vector<uint32_t> import_of(doc.global_fields.size(), kNoValue);
  for (const IrFunction& fn : fns)
    for (const IrInst& ins : fn.code) {
      if (ins.pending != Pending::kGlobal) continue;
      const uint32_t declared = ins.src[0].word & 0xFFFFu;
      if (import_of[declared] != kNoValue) continue;
      import_of[declared] = uint32_t(p.global_imports.size());
      p.global_imports.push_back({doc.global_fields[declared].name, doc.global_fields[declared].width});
      out.globals.push_back({doc.global_fields[declared].name, doc.global_fields[declared].values});
    }
  std::vector<IrFunction*> fn_pointers;
  for (IrFunction& fn : fns) fn_pointers.push_back(&fn);
  MOTE_TRY_ASSIGN(p.constants, intern_constants(fn_pointers));
  for (size_t g = 0; g < graphs.size(); ++g) {
    MOTE_TRY_ASSIGN(Allocation alloc, allocate_registers(fns[g]));
    p.register_count = std::max(p.register_count, alloc.register_count);
    MOTE_TRY_ASSIGN(p.code(graphs[g].section), encode_function(fns[g], alloc, import_of));
    if (p.code(graphs[g].section).size() > 4096)
      return make_error(ErrorCode::kInvalidArgument, "a section compiles to more than 4096 instructions",
                        graphs[g].where);
  }
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
