// Graph typing (see graph_check.hpp). Every error names the JSON value at fault.
#include "graph_check.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace mote::graph {

using nlohmann::json;

namespace {

Error err(const std::string& where, std::string message) {
  return make_error(ErrorCode::kParse, std::move(message), where);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Result<float> param_number(const json& j, const std::string& where) {
  if (!j.is_number()) return err(where, fmt::format("expected a number, got {}", j.type_name()));
  const double v = j.get<double>();
  if (!std::isfinite(v) || std::fabs(v) > 3.4e38) return err(where, "number is not a finite 32-bit float");
  return float(v);
}

Result<std::vector<float>> param_vector(const json& j, const std::string& where, size_t lo, size_t hi) {
  if (!j.is_array() || j.size() < lo || j.size() > hi)
    return err(where, lo == hi ? fmt::format("expected an array of {} numbers", lo)
                               : fmt::format("expected an array of {} to {} numbers", lo, hi));
  std::vector<float> out;
  for (size_t k = 0; k < j.size(); ++k) {
    MOTE_TRY_ASSIGN(float x, param_number(j[k], where + "/" + std::to_string(k)));
    out.push_back(x);
  }
  return out;
}

// The index of the declared event output (the document's "event_outputs") that `j` names.
Result<uint32_t> param_event_output(const json& j, const EffectDocument& doc, const std::string& where) {
  if (!j.is_string()) return err(where, fmt::format("expected an event output name, got {}", j.type_name()));
  const auto& names = doc.event_outputs;
  const auto found = std::find(names.begin(), names.end(), j.get<std::string>());
  if (found == names.end())
    return err(where, fmt::format("'{}' is not a declared event output (the document's \"event_outputs\")",
                                  j.get<std::string>()));
  return uint32_t(found - names.begin());
}

// The slot of the declared vector field (the document's "vector_fields") that `j` names.
Result<uint32_t> param_vector_field(const json& j, const EffectDocument& doc, const std::string& where) {
  if (!j.is_string()) return err(where, fmt::format("expected a vector field name, got {}", j.type_name()));
  const auto& names = doc.vector_fields;
  const auto found = std::find(names.begin(), names.end(), j.get<std::string>());
  if (found == names.end())
    return err(where, fmt::format("'{}' is not a declared vector field (the document's \"vector_fields\")",
                                  j.get<std::string>()));
  return uint32_t(found - names.begin());
}

Status read_params(TypedNode& n, Section section, const EffectDocument& doc, const std::string& w) {
  const json& params = n.doc->params;
  const std::string pw = w + "/params";
  for (auto it = params.begin(); it != params.end(); ++it) {
    bool known = false;
    for (const ParamSpec& p : n.spec->params) known = known || p.name == it.key();
    if (!known)
      return err(pw + "/" + json_pointer_token(it.key()),
                 fmt::format("node type '{}' has no parameter '{}'", n.spec->type, it.key()));
  }
  for (const ParamSpec& p : n.spec->params) {
    const std::string key(p.name);
    if (!params.contains(key)) {
      if (p.required) return err(pw, fmt::format("missing required parameter '{}'", key));
      continue;
    }
    const json& v = params[key];
    const std::string vw = pw + "/" + key;
    switch (p.kind) {
      case ParamKind::kParticleField:
      case ParamKind::kEmitterField:
      case ParamKind::kGlobalField: {
        if (!v.is_string()) return err(vw, fmt::format("expected a field name, got {}", v.type_name()));
        const auto& list = p.kind == ParamKind::kParticleField  ? doc.particle_fields
                           : p.kind == ParamKind::kEmitterField ? doc.emitter_fields
                                                                : doc.global_fields;
        const char* what = p.kind == ParamKind::kParticleField  ? "particle"
                           : p.kind == ParamKind::kEmitterField ? "emitter"
                                                                : "global";
        uint32_t offset = p.kind == ParamKind::kParticleField ? 1 : 0;
        bool found = false;
        for (uint32_t i = 0; i < list.size() && !found; ++i) {
          if (list[i].name == v.get<std::string>()) {
            found = true;
            n.field_index = i;
            n.field_offset = offset;
            n.field_width = list[i].width;
          }
          offset += list[i].width;
        }
        if (!found) return err(vw, fmt::format("'{}' is not a declared {} field", v.get<std::string>(), what));
        break;
      }
      case ParamKind::kEventOutput: {
        MOTE_TRY_ASSIGN(n.event_output, param_event_output(v, doc, vw));
        break;
      }
      case ParamKind::kVectorField: {
        MOTE_TRY_ASSIGN(n.vector_field, param_vector_field(v, doc, vw));
        break;
      }
      case ParamKind::kBuiltinName: {
        if (!v.is_string()) return err(vw, fmt::format("expected a builtin name, got {}", v.type_name()));
        bool found = false;
        for (const auto& b : isa::all_builtins()) {
          if (lower(b.name) != v.get<std::string>()) continue;
          found = true;
          n.builtin_id = b.id;
          n.field_width = b.width;
        }
        if (!found)
          return err(vw, fmt::format("'{}' is not a builtin (dt, time, emitter_position, ...)", v.get<std::string>()));
        const bool spawn_only = v.get<std::string>().rfind("spawn_", 0) == 0;
        if (spawn_only && section != Section::kInit)
          return err(vw, fmt::format("'{}' exists only in init", v.get<std::string>()));
        break;
      }
      case ParamKind::kCurveKeys: {
        if (!v.is_array() || v.empty() || v.size() > 64)
          return err(vw, "expected an array of 1 to 64 keys [t, value...]");
        size_t width = 0;
        for (size_t k = 0; k < v.size(); ++k) {
          const std::string kw = vw + "/" + std::to_string(k);
          MOTE_TRY_ASSIGN(std::vector<float> curve_key, param_vector(v[k], kw, 2, 5));
          if (width == 0) width = curve_key.size() - 1;
          if (curve_key.size() - 1 != width) return err(kw, fmt::format("every key needs {} values", width));
          if (k > 0 && !(curve_key[0] > n.keys.back()[0])) return err(kw + "/0", "key times must increase strictly");
          n.keys.push_back(std::move(curve_key));
        }
        if (n.spec->type == "gradient" && width != 3 && width != 4)
          return err(vw, "gradient keys are [t, r, g, b] or [t, r, g, b, a]");
        n.field_width = uint32_t(width);
        break;
      }
      case ParamKind::kInterpolation: {
        if (!v.is_string() || (v != "linear" && v != "smooth")) return err(vw, "expected \"linear\" or \"smooth\"");
        n.smooth = v == "smooth";
        break;
      }
      case ParamKind::kCompare: {
        static const char* kCodes[] = {"lt", "le", "eq", "ne", "ge", "gt"};
        bool found = false;
        for (uint32_t c = 0; c < 6; ++c)
          if (v.is_string() && v == kCodes[c]) {
            n.cmp = c;
            found = true;
          }
        if (!found) return err(vw, "expected one of lt, le, eq, ne, ge, gt");
        break;
      }
      case ParamKind::kNumber: {
        MOTE_TRY_ASSIGN(n.constant[0], param_number(v, vw));
        n.field_width = 1;
        break;
      }
      case ParamKind::kVector: {
        size_t lo = 4, hi = 4;
        if (n.spec->type == "vec2") lo = hi = 2;
        if (n.spec->type == "vec3") lo = hi = 3;
        if (n.spec->type == "color") lo = 3;
        MOTE_TRY_ASSIGN(std::vector<float> x, param_vector(v, vw, lo, hi));
        if (n.spec->type == "color" && x.size() == 3) x.push_back(1.0f);
        for (size_t k = 0; k < x.size(); ++k) n.constant[k] = x[k];
        n.field_width = uint32_t(x.size());
        break;
      }
    }
  }
  return {};
}

int port_index(const std::vector<PortSpec>& ports, std::string_view name) {
  for (size_t i = 0; i < ports.size(); ++i)
    if (ports[i].name == name) return int(i);
  return -1;
}

std::string node_pointer(const std::string& where, uint32_t i) { return where + "/nodes/" + std::to_string(i); }

// Resolves the reference `in` (to another node's output) that input pointer `iw` holds into `t`.
Status resolve_reference(const DocGraph& graph, const std::map<std::string, uint32_t>& by_id, const DocInput& in,
                         const std::string& iw, TypedInput& t) {
  auto src = by_id.find(in.node);
  if (src == by_id.end()) return err(iw, fmt::format("no node '{}' in this graph", in.node));
  const NodeSpec* ss = find_node_spec(graph.nodes[src->second].type);
  if (ss == nullptr) return err(iw, fmt::format("node '{}' has an unknown type", in.node));
  int op = -1;
  if (in.port.empty()) {
    if (ss->outputs.size() != 1)
      return err(iw, fmt::format("node '{}' has {} outputs: name one as \"{}.port\"", in.node, ss->outputs.size(),
                                 in.node));
    op = 0;
  } else {
    for (size_t k = 0; k < ss->outputs.size(); ++k)
      if (ss->outputs[k].name == in.port) op = int(k);
    if (op < 0) return err(iw, fmt::format("node '{}' ({}) has no output '{}'", in.node, ss->type, in.port));
  }
  t.kind = TypedInput::Kind::kRef;
  t.node = src->second;
  t.port = uint32_t(op);
  return {};
}

// Gives every input the document leaves out its default, or refuses a required one.
Status apply_input_defaults(TypedNode& n, const std::string& w) {
  for (size_t p = 0; p < n.spec->inputs.size(); ++p) {
    const PortSpec& ps = n.spec->inputs[p];
    TypedInput& t = n.inputs[p];
    if (t.kind != TypedInput::Kind::kAbsent) continue;
    if (ps.def == PortSpec::Default::kRequired)
      return err(n.doc->has_inputs_key ? w + "/inputs" : w, fmt::format("missing required input '{}'", ps.name));
    if (ps.def == PortSpec::Default::kValue) {
      t.kind = TypedInput::Kind::kConst;
      t.value = ps.value;
      t.width = ps.value_width;
    } else if (ps.def == PortSpec::Default::kBuiltin) {
      t.kind = TypedInput::Kind::kBuiltin;
      t.builtin = ps.builtin;
      t.width = 1;
    }
  }
  return {};
}

// What a stateless effect's graph cannot say (docs/design/effects.md, "Stateless effects"): it
// has no state from an earlier frame to read, no tick whose dt it could use, and it neither kills
// nor sends events (a particle's life is its lifetime loop).
Status check_eval_node(const TypedNode& n, const std::string& w) {
  const std::string_view type = n.spec->type;
  if (type == "get_field")
    return err(w + "/params/field",
               fmt::format("a stateless effect cannot read particle field '{}': nothing persists between frames "
                           "(compute it from time, the seed and the index)",
                           n.doc->params.value("field", std::string())));
  if (type == "kill_if" || type == "send_event")
    return err(w + "/type", fmt::format("node type '{}' needs state, which a stateless effect has not", type));
  if (type == "builtin") {
    const isa::Builtin b = isa::builtin_info(n.builtin_id)->builtin;
    if (b == isa::Builtin::DT || b == isa::Builtin::EVENT_POSITION || b == isa::Builtin::EVENT_VELOCITY ||
        b == isa::Builtin::EVENT_COLOR || b == isa::Builtin::EVENT_ID)
      return err(w + "/params/name", fmt::format("'{}' is not defined in a stateless effect (a frame depends on "
                                                 "the time, not on the step that reached it)",
                                                 n.doc->params.value("name", std::string())));
  }
  return {};
}

// The lifetime loop's lives, where the document gives them as constants: a life that is not
// above zero loops nowhere (docs/design/nodes.md, "lifetime").
Status check_lifetime_lives(const TypedNode& n, const std::string& w) {
  const TypedInput& lo = n.inputs[1];
  const TypedInput& hi = n.inputs[2];
  if (lo.kind == TypedInput::Kind::kConst && !(lo.value[0] > 0.0f))
    return err(w + "/inputs/life_min", "a particle's life must be above zero seconds");
  if (hi.kind == TypedInput::Kind::kConst && !(hi.value[0] > 0.0f))
    return err(w + "/inputs/life_max", "a particle's life must be above zero seconds");
  if (lo.kind == TypedInput::Kind::kConst && hi.kind == TypedInput::Kind::kConst && hi.value[0] < lo.value[0])
    return err(w + "/inputs/life_max", "life_max is below life_min");
  return {};
}

// A port left to the tick's dt in a stateless graph: refused where the input would be.
Status check_eval_defaults(const TypedNode& n, const std::string& w) {
  if (n.spec->type == "lifetime") MOTE_TRY(check_lifetime_lives(n, w));
  for (size_t p = 0; p < n.spec->inputs.size(); ++p)
    if (n.inputs[p].kind == TypedInput::Kind::kBuiltin && n.inputs[p].builtin == isa::Builtin::DT)
      return err(n.doc->has_inputs_key ? w + "/inputs" : w,
                 fmt::format("input '{}' defaults to the tick's dt, which a stateless effect has not: connect it",
                             n.spec->inputs[p].name));
  return {};
}

// Node `i` with its type, parameters, port names and references checked; widths come later.
Result<TypedNode> type_node(const DocGraph& graph, const std::map<std::string, uint32_t>& by_id, uint32_t i,
                            Section section, const EffectDocument& doc, const std::string& w) {
  const DocNode& d = graph.nodes[i];
  TypedNode n;
  n.index = i;
  n.doc = &d;
  n.spec = find_node_spec(d.type);
  if (n.spec == nullptr) return err(w + "/type", fmt::format("unknown node type '{}'", d.type));
  const uint8_t mask = section == Section::kInit ? kInit : section == Section::kUpdate ? kUpdate : kEval;
  const uint8_t allowed = section == Section::kEval && (n.spec->sections & kUpdate) ? kEval : n.spec->sections;
  if (!(allowed & mask))
    return err(w + "/type", fmt::format("node type '{}' cannot be used in {}", d.type, section_name(section)));
  MOTE_TRY(read_params(n, section, doc, w));
  if (section == Section::kEval) MOTE_TRY(check_eval_node(n, w));
  n.inputs.resize(n.spec->inputs.size());
  for (const auto& [port, in] : d.inputs) {
    const std::string iw = w + "/inputs/" + json_pointer_token(port);
    const int p = port_index(n.spec->inputs, port);
    if (p < 0) return err(iw, fmt::format("node type '{}' has no input '{}'", d.type, port));
    TypedInput& t = n.inputs[size_t(p)];
    if (in.is_ref) {
      MOTE_TRY(resolve_reference(graph, by_id, in, iw, t));
      continue;
    }
    t.kind = TypedInput::Kind::kConst;
    t.width = uint8_t(in.values.size());
    for (size_t k = 0; k < in.values.size(); ++k) t.value[k] = in.values[k];
  }
  MOTE_TRY(apply_input_defaults(n, w));
  if (section == Section::kEval) MOTE_TRY(check_eval_defaults(n, w));
  return n;
}

// A topological order of every node (depth first, document order), or the connection that closes
// a cycle.
Result<std::vector<uint32_t>> topological_order(const TypedGraph& g, const std::string& where) {
  std::vector<uint8_t> color(g.nodes.size(), 0);  // 0 unvisited, 1 on the path, 2 done
  std::vector<uint32_t> topo;
  for (uint32_t root = 0; root < g.nodes.size(); ++root) {
    if (color[root]) continue;
    std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
    color[root] = 1;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      const TypedNode& n = g.nodes[v];
      if (next < n.inputs.size()) {
        const size_t p = next++;
        const TypedInput& t = n.inputs[p];
        if (t.kind != TypedInput::Kind::kRef) continue;
        if (color[t.node] == 1)
          return err(node_pointer(where, v) + "/inputs/" + json_pointer_token(n.spec->inputs[p].name),
                     fmt::format("this connection closes a cycle through node '{}'", g.nodes[t.node].doc->id));
        if (color[t.node] == 0) {
          color[t.node] = 1;
          stack.push_back({t.node, 0});
        }
        continue;
      }
      color[v] = 2;
      topo.push_back(v);
      stack.pop_back();
    }
  }
  return topo;
}

// Sets node `v`'s generic width and output widths from its inputs' (whose sources come earlier
// in topological order) and checks every input's width against its port.
Status infer_widths(TypedGraph& g, uint32_t v, const std::string& w) {
  TypedNode& n = g.nodes[v];
  std::vector<uint8_t> widths(n.inputs.size(), 1);
  for (size_t p = 0; p < n.inputs.size(); ++p) {
    const TypedInput& t = n.inputs[p];
    if (t.kind != TypedInput::Kind::kRef) {
      widths[p] = t.width;
      continue;
    }
    const TypedNode& src = g.nodes[t.node];
    if (src.spec->type == "split" && t.port >= src.generic)
      return err(w + "/inputs/" + json_pointer_token(n.spec->inputs[p].name),
                 fmt::format("'{}' splits a width-{} value: it has no output '{}'", src.doc->id, src.generic,
                             src.spec->outputs[t.port].name));
    widths[p] = src.out_widths[t.port];
  }
  uint8_t generic = 1;
  for (size_t p = 0; p < n.inputs.size(); ++p)
    if (n.spec->inputs[p].width == kGeneric && n.inputs[p].kind != TypedInput::Kind::kAbsent)
      generic = std::max(generic, widths[p]);
  n.generic = generic;
  for (size_t p = 0; p < n.inputs.size(); ++p) {
    if (n.inputs[p].kind == TypedInput::Kind::kAbsent) continue;
    const PortSpec& ps = n.spec->inputs[p];
    const uint8_t want = ps.width == kGeneric ? generic : ps.width == kFromParams ? uint8_t(n.field_width) : ps.width;
    if (widths[p] != want && widths[p] != 1)
      return err(w + "/inputs/" + json_pointer_token(ps.name),
                 fmt::format("input '{}' of '{}' takes width {} (or a scalar), got width {}", ps.name, n.spec->type,
                             want, widths[p]));
  }
  if (n.spec->type == "combine") {
    const bool z = n.inputs[2].kind != TypedInput::Kind::kAbsent, wv = n.inputs[3].kind != TypedInput::Kind::kAbsent;
    if (wv && !z) return err(w + "/inputs/w", "combine: 'w' needs 'z'");
    n.field_width = 2u + (z ? 1u : 0u) + (wv ? 1u : 0u);
  }
  if (n.spec->type == "cross" || n.spec->type == "quat_rotate") n.generic = 3;
  for (const OutSpec& o : n.spec->outputs)
    n.out_widths.push_back(o.width == kGeneric ? generic : o.width == kFromParams ? uint8_t(n.field_width) : o.width);
  return {};
}

// At most one store per field.
Status check_one_store_per_field(const TypedGraph& g, const std::string& where) {
  std::map<uint32_t, uint32_t> stored;
  for (const TypedNode& n : g.nodes) {
    if (n.spec->type != "set_field") continue;
    if (!stored.emplace(n.field_index, n.index).second)
      return err(node_pointer(where, n.index) + "/params/field",
                 fmt::format("field '{}' is already set by node '{}'", n.doc->params["field"].get<std::string>(),
                             g.nodes[stored[n.field_index]].doc->id));
  }
  return {};
}

// A collider whose size is a constant must have one: a radius, every half extent or a depth
// collider's thickness finite and above 0 (issue 27's bad input; a size computed by the graph is the author's to keep
// positive).
Status check_collider_sizes(const TypedGraph& g, const std::string& where) {
  for (const TypedNode& n : g.nodes) {
    const std::string_view type = n.spec->type;
    const char* port = type == "collide_box"                                     ? "extent"
                       : (type == "collide_sphere" || type == "collide_capsule") ? "radius"
                       : type == "collide_depth"                                 ? "thickness"
                                                                                 : nullptr;
    if (port == nullptr) continue;
    const int p = port_index(n.spec->inputs, port);
    const TypedInput& t = n.inputs[size_t(p)];
    if (t.kind != TypedInput::Kind::kConst) continue;
    for (uint8_t k = 0; k < t.width; ++k)
      if (!(t.value[k] > 0.0f) || !std::isfinite(t.value[k]))
        return err(node_pointer(where, n.index) + "/inputs/" + port,
                   std::string("a collider's ") + port + " must be above 0, not " + std::to_string(t.value[k]));
  }
  return {};
}

// The nodes of `topo` that reach a sink, in that order.
std::vector<uint32_t> nodes_reaching_a_sink(const TypedGraph& g, const std::vector<uint32_t>& topo) {
  std::vector<uint8_t> reach(g.nodes.size(), 0);
  for (size_t k = topo.size(); k-- > 0;) {
    const TypedNode& n = g.nodes[topo[k]];
    if (n.spec->sink) reach[n.index] = 1;
    if (!reach[n.index]) continue;
    for (const TypedInput& t : n.inputs)
      if (t.kind == TypedInput::Kind::kRef) reach[t.node] = 1;
  }
  std::vector<uint32_t> order;
  for (uint32_t v : topo)
    if (reach[v]) order.push_back(v);
  return order;
}

}  // namespace

Result<TypedGraph> check_graph(const DocGraph& graph, Section section, const EffectDocument& doc,
                               const std::string& where) {
  TypedGraph g;
  std::map<std::string, uint32_t> by_id;
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) by_id.emplace(graph.nodes[i].id, i);
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) {
    MOTE_TRY_ASSIGN(TypedNode n, type_node(graph, by_id, i, section, doc, node_pointer(where, i)));
    g.nodes.push_back(std::move(n));
  }
  MOTE_TRY_ASSIGN(const std::vector<uint32_t> topo, topological_order(g, where));
  for (uint32_t v : topo) MOTE_TRY(infer_widths(g, v, node_pointer(where, v)));
  MOTE_TRY(check_one_store_per_field(g, where));
  MOTE_TRY(check_collider_sizes(g, where));
  g.order = nodes_reaching_a_sink(g, topo);
  return g;
}

}  // namespace mote::graph
