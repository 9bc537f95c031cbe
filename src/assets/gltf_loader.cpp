// glTF 2.0 -> one flattened Mesh. tinygltf (the packaged libtinygltf.so) parses the JSON / GLB
// container and fetches the buffers; everything it leaves unchecked is checked here before a byte
// is read: accessor component types and counts, byte strides, bufferView ranges against the
// buffer sizes, index values against the vertex count, the node hierarchy's shape and depth.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <new>
#include <optional>
#include <string>
#include <system_error>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "assets/mesh.hpp"
#include "assets/gltf_files.hpp"
#include "assets/mesh_util.hpp"
#include "core/file.hpp"

// Declarations only (no TINYGLTF_IMPLEMENTATION: libtinygltf.so has it); from /usr/include it
// is a system header and adds no warnings to ours.
#include <tiny_gltf.h>

namespace mote::assets {
namespace {

static_assert(std::endian::native == std::endian::little, "glTF buffers are little-endian and read in place");

// Budgets (the file size: kMaxGltfFileBytes, gltf_files.hpp). JSON nesting is limited because tinygltf converts
// "extras" and "extensions" recursively: a hostile file of a few kilobytes of '[' would otherwise overflow the stack.
// Real glTF nests well under 16 levels.
constexpr uint32_t kMaxJsonNesting = 64;
// The node hierarchy is walked recursively; deeper files are refused.
constexpr uint32_t kMaxNodeDepth = 64;

// ---- tinygltf's image callback (its file-system callbacks: gltf_files.hpp) -----------------

// Meshes only: embedded and external images are left undecoded.
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
  return true;
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  for (char& c : s)
    if (c == '\n') c = ';';
  return s;
}

// ---- accessors -------------------------------------------------------------------------------

const char* type_name(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR: return "SCALAR";
    case TINYGLTF_TYPE_VEC2: return "VEC2";
    case TINYGLTF_TYPE_VEC3: return "VEC3";
    case TINYGLTF_TYPE_VEC4: return "VEC4";
    case TINYGLTF_TYPE_MAT2: return "MAT2";
    case TINYGLTF_TYPE_MAT3: return "MAT3";
    case TINYGLTF_TYPE_MAT4: return "MAT4";
  }
  return "unknown";
}

size_t component_count(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR: return 1;
    case TINYGLTF_TYPE_VEC2: return 2;
    case TINYGLTF_TYPE_VEC3: return 3;
    case TINYGLTF_TYPE_VEC4: return 4;
  }
  return 0;  // matrices are never asked for
}

size_t component_size(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
  }
  return 0;  // never asked for: only the types above pass validation
}

const char* component_name(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: return "BYTE";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return "UNSIGNED_BYTE";
    case TINYGLTF_COMPONENT_TYPE_SHORT: return "SHORT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return "UNSIGNED_SHORT";
    case TINYGLTF_COMPONENT_TYPE_INT: return "INT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: return "UNSIGNED_INT";
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return "FLOAT";
    case TINYGLTF_COMPONENT_TYPE_DOUBLE: return "DOUBLE";
  }
  return "unknown";
}

// A validated accessor: `count` elements of `stride` bytes from `data`, every byte of which lies
// inside its buffer.
struct AccessorView {
  const uint8_t* data = nullptr;
  size_t count = 0;
  size_t stride = 0;
  int component_type = 0;
  bool normalized = false;
  std::string where;  // "file#/accessors/N"

  const uint8_t* element(size_t i) const { return data + i * stride; }
  float read_float(size_t i, size_t c) const {
    float f;
    std::memcpy(&f, element(i) + c * 4, 4);
    return f;
  }
  uint32_t read_uint(size_t i) const {
    switch (component_type) {
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return *element(i);
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        uint16_t v;
        std::memcpy(&v, element(i), 2);
        return v;
      }
      default: {
        uint32_t v;
        std::memcpy(&v, element(i), 4);
        return v;
      }
    }
  }
};

// ---- the flattening ---------------------------------------------------------------------------

class Flattener {
 public:
  Flattener(const tinygltf::Model& model, std::string_view name) : model_(model), name_(name) {}

  Result<Mesh> run() {
    MOTE_TRY(check_extensions());
    std::vector<int> roots;
    std::string roots_where;
    if (model_.defaultScene >= 0) {
      if (size_t(model_.defaultScene) >= model_.scenes.size())
        return fail("the default scene " + std::to_string(model_.defaultScene) + " does not exist (" +
                        std::to_string(model_.scenes.size()) + " scenes)",
                    "/scene");
      roots = model_.scenes[size_t(model_.defaultScene)].nodes;
      roots_where = "/scenes/" + std::to_string(model_.defaultScene) + "/nodes";
    } else if (!model_.scenes.empty()) {  // no "scene": the first one, as viewers do
      roots = model_.scenes[0].nodes;
      roots_where = "/scenes/0/nodes";
    } else {  // no scenes at all: every node that is nobody's child
      std::vector<bool> is_child(model_.nodes.size(), false);
      for (const tinygltf::Node& node : model_.nodes)
        for (int child : node.children)
          if (child >= 0 && size_t(child) < model_.nodes.size()) is_child[size_t(child)] = true;
      for (size_t i = 0; i < model_.nodes.size(); ++i)
        if (!is_child[i]) roots.push_back(int(i));
      roots_where = "/nodes";
    }

    state_.assign(model_.nodes.size(), kUnvisited);
    for (size_t i = 0; i < roots.size(); ++i)
      MOTE_TRY(visit(roots[i], glm::dmat4(1.0), 1, roots_where + "/" + std::to_string(i)));
    if (mesh_.indices.empty())
      return make_error(ErrorCode::kFormat, "no TRIANGLES primitive is reachable from the default scene", name_);
    compute_bounds(mesh_);
    return std::move(mesh_);
  }

 private:
  enum : uint8_t { kUnvisited, kOnPath, kDone };

  Error fail(std::string message, const std::string& pointer, ErrorCode code = ErrorCode::kFormat) const {
    return make_error(code, std::move(message), name_ + "#" + pointer);
  }

  Status check_extensions() const {
    // Extensions that change how geometry is stored: without them the accessors are wrong.
    for (const std::string& ext : model_.extensionsRequired)
      if (ext == "KHR_draco_mesh_compression" || ext == "EXT_meshopt_compression" || ext == "KHR_mesh_quantization")
        return fail("required extension " + ext + " is not supported", "/extensionsRequired", ErrorCode::kUnsupported);
    if (model_.asset.version.empty() || model_.asset.version[0] != '2' ||
        (model_.asset.version.size() > 1 && model_.asset.version[1] != '.'))
      return fail("glTF version \"" + model_.asset.version + "\" is not 2.x", "/asset/version",
                  ErrorCode::kUnsupported);
    return {};
  }

  // `reference` is the JSON pointer of the index that named this node.
  Status visit(int index, const glm::dmat4& parent, uint32_t depth, const std::string& reference) {
    if (index < 0 || size_t(index) >= model_.nodes.size())
      return fail("node " + std::to_string(index) + " does not exist (" + std::to_string(model_.nodes.size()) +
                      " nodes)",
                  reference);
    const std::string where = "/nodes/" + std::to_string(index);
    if (depth > kMaxNodeDepth)
      return fail("the node hierarchy is deeper than " + std::to_string(kMaxNodeDepth) + " levels", where);
    if (state_[size_t(index)] == kOnPath) return fail("node is its own ancestor (a cycle)", where);
    if (state_[size_t(index)] == kDone)
      return fail("node is reached twice (the node hierarchy must be disjoint trees)", where);
    state_[size_t(index)] = kOnPath;

    const tinygltf::Node& node = model_.nodes[size_t(index)];
    MOTE_TRY_ASSIGN(const glm::dmat4 local, local_transform(node, where));
    const glm::dmat4 world = parent * local;
    if (node.mesh != -1) {
      if (node.mesh < 0 || size_t(node.mesh) >= model_.meshes.size())
        return fail("mesh " + std::to_string(node.mesh) + " does not exist (" + std::to_string(model_.meshes.size()) +
                        " meshes)",
                    where + "/mesh");
      const tinygltf::Mesh& mesh = model_.meshes[size_t(node.mesh)];
      for (size_t p = 0; p < mesh.primitives.size(); ++p) MOTE_TRY(add_primitive(node.mesh, p, world));
    }
    for (size_t c = 0; c < node.children.size(); ++c)
      MOTE_TRY(visit(node.children[c], world, depth + 1, where + "/children/" + std::to_string(c)));
    state_[size_t(index)] = kDone;
    return {};
  }

  Result<glm::dmat4> local_transform(const tinygltf::Node& node, const std::string& where) const {
    auto finite = [](const std::vector<double>& v) {
      return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
    };
    if (!node.matrix.empty()) {
      if (node.matrix.size() != 16 || !finite(node.matrix))
        return fail("matrix must be 16 finite numbers", where + "/matrix");
      return glm::make_mat4(node.matrix.data());  // column-major, as glTF stores it
    }
    if ((node.translation.size() != 0 && node.translation.size() != 3) || !finite(node.translation))
      return fail("translation must be 3 finite numbers", where + "/translation");
    if ((node.rotation.size() != 0 && node.rotation.size() != 4) || !finite(node.rotation))
      return fail("rotation must be 4 finite numbers", where + "/rotation");
    if ((node.scale.size() != 0 && node.scale.size() != 3) || !finite(node.scale))
      return fail("scale must be 3 finite numbers", where + "/scale");
    glm::dmat4 m(1.0);
    if (!node.translation.empty())
      m = glm::translate(m, glm::dvec3(node.translation[0], node.translation[1], node.translation[2]));
    if (!node.rotation.empty()) {
      // glTF stores (x, y, z, w); exporters round, so the quaternion is renormalised.
      glm::dquat q(node.rotation[3], node.rotation[0], node.rotation[1], node.rotation[2]);
      const double len = glm::length(q);
      if (!(len > 1e-6) || !std::isfinite(len)) return fail("rotation is not a unit quaternion", where + "/rotation");
      m *= glm::mat4_cast(q / len);
    }
    if (!node.scale.empty()) m = glm::scale(m, glm::dvec3(node.scale[0], node.scale[1], node.scale[2]));
    return m;
  }

  // Validates accessor `index` for reading `max_count` or fewer elements of `type` with one of
  // `component_types`; `use` names the attribute in messages.
  Result<AccessorView> view_accessor(int index, int type, std::initializer_list<int> component_types, size_t max_count,
                                     const std::string& use, const std::string& use_where) const {
    if (index < 0 || size_t(index) >= model_.accessors.size())
      return fail(use + ": accessor " + std::to_string(index) + " does not exist (" +
                      std::to_string(model_.accessors.size()) + " accessors)",
                  use_where);
    const tinygltf::Accessor& a = model_.accessors[size_t(index)];
    const std::string where = "/accessors/" + std::to_string(index);
    if (a.sparse.isSparse) return fail(use + ": sparse accessors are not supported", where, ErrorCode::kUnsupported);
    if (a.type != type)
      return fail(use + ": accessor type is " + type_name(a.type) + ", expected " + type_name(type), where + "/type");
    if (std::find(component_types.begin(), component_types.end(), a.componentType) == component_types.end())
      return fail(use + ": componentType " + component_name(a.componentType) + " is not accepted here",
                  where + "/componentType");
    if (a.count == 0) return fail(use + ": count is 0", where + "/count");
    if (a.count > max_count)
      return fail(use + ": count " + std::to_string(a.count) + " is over the limit of " + std::to_string(max_count),
                  where + "/count");
    if (a.bufferView < 0 || size_t(a.bufferView) >= model_.bufferViews.size())
      return fail(use + ": bufferView " + std::to_string(a.bufferView) +
                      " does not exist (accessors without one are "
                      "not supported)",
                  where + "/bufferView");
    const tinygltf::BufferView& view = model_.bufferViews[size_t(a.bufferView)];
    const std::string view_where = "/bufferViews/" + std::to_string(a.bufferView);
    if (view.buffer < 0 || size_t(view.buffer) >= model_.buffers.size())
      return fail("buffer " + std::to_string(view.buffer) + " does not exist", view_where + "/buffer");
    const size_t buffer_size = model_.buffers[size_t(view.buffer)].data.size();
    if (view.byteOffset > buffer_size || view.byteLength > buffer_size - view.byteOffset)
      return fail("bytes [" + std::to_string(view.byteOffset) + ", +" + std::to_string(view.byteLength) +
                      ") lie outside buffer " + std::to_string(view.buffer) + " of " + std::to_string(buffer_size) +
                      " bytes",
                  view_where);

    const size_t element_size = component_size(a.componentType) * component_count(type);
    const size_t stride = view.byteStride != 0 ? view.byteStride : element_size;
    if (stride < element_size)
      return fail("byteStride " + std::to_string(stride) + " is smaller than one " + use + " element (" +
                      std::to_string(element_size) + " bytes)",
                  view_where + "/byteStride");
    // The last element must end inside the view: byteOffset + stride * (count - 1) + element_size.
    size_t span = 0;
    if (__builtin_mul_overflow(stride, a.count - 1, &span) || __builtin_add_overflow(span, element_size, &span) ||
        a.byteOffset > view.byteLength || span > view.byteLength - a.byteOffset)
      return fail(use + ": " + std::to_string(a.count) + " elements of stride " + std::to_string(stride) +
                      " from byteOffset " + std::to_string(a.byteOffset) + " overrun bufferView " +
                      std::to_string(a.bufferView) + " of " + std::to_string(view.byteLength) + " bytes",
                  where);

    AccessorView out;
    out.data = model_.buffers[size_t(view.buffer)].data.data() + view.byteOffset + a.byteOffset;
    out.count = a.count;
    out.stride = stride;
    out.component_type = a.componentType;
    out.normalized = a.normalized;
    out.where = where;
    return out;
  }

  // A triangle primitive's vertex attributes, each validated and as long as POSITION.
  struct PrimitiveAttributes {
    AccessorView positions;
    std::optional<AccessorView> normals, uvs;
  };

  // Appends one primitive, transformed by `world`, to the flattened mesh; every check comes
  // before anything is appended, so a refused primitive leaves the mesh as it was.
  Status add_primitive(int mesh_index, size_t prim_index, const glm::dmat4& world) {
    const tinygltf::Primitive& prim = model_.meshes[size_t(mesh_index)].primitives[prim_index];
    if (prim.mode != TINYGLTF_MODE_TRIANGLES) return {};  // points, lines, strips and fans are skipped
    const std::string where = "/meshes/" + std::to_string(mesh_index) + "/primitives/" + std::to_string(prim_index);
    MOTE_TRY_ASSIGN(const PrimitiveAttributes attributes, read_attributes(prim, where));
    const size_t vertex_count = attributes.positions.count;
    MOTE_TRY_ASSIGN(std::vector<uint32_t> indices, read_indices(prim, vertex_count, where));
    if (mesh_.vertices.size() + vertex_count > kMaxMeshVertices)
      return fail("the flattened mesh would have more than " + std::to_string(kMaxMeshVertices) + " vertices", where);
    if (mesh_.indices.size() + indices.size() > kMaxMeshIndices)
      return fail("the flattened mesh would have more than " + std::to_string(kMaxMeshIndices) + " indices", where);

    std::vector<MeshVertex> vertices(vertex_count);
    MOTE_TRY(transform_positions(attributes.positions, world, vertices));
    if (attributes.uvs) MOTE_TRY(read_uvs(*attributes.uvs, vertices));

    // A mirroring transform turns the winding over; swap two corners to keep fronts CCW.
    const glm::dmat3 linear(world);
    const double det = glm::determinant(linear);
    if (det < 0.0)
      for (size_t t = 0; t < indices.size(); t += 3) std::swap(indices[t + 1], indices[t + 2]);
    MOTE_TRY(set_normals(attributes.normals, linear, indices, vertices));

    const uint32_t base = uint32_t(mesh_.vertices.size());
    mesh_.vertices.insert(mesh_.vertices.end(), vertices.begin(), vertices.end());
    for (uint32_t i : indices) mesh_.indices.push_back(base + i);
    return {};
  }

  // POSITION (required), NORMAL and TEXCOORD_0 of `prim`, whose pointer is `where`.
  Result<PrimitiveAttributes> read_attributes(const tinygltf::Primitive& prim, const std::string& where) const {
    auto attribute = [&](const char* name) {
      auto it = prim.attributes.find(name);
      return it == prim.attributes.end() ? -2 : it->second;  // -2: absent (-1 would be a bad index)
    };
    PrimitiveAttributes out;
    const int position_index = attribute("POSITION");
    if (position_index == -2) return fail("primitive has no POSITION attribute", where + "/attributes");
    MOTE_TRY_ASSIGN(out.positions, view_accessor(position_index, TINYGLTF_TYPE_VEC3, {TINYGLTF_COMPONENT_TYPE_FLOAT},
                                                 kMaxMeshVertices, "POSITION", where + "/attributes/POSITION"));
    const size_t vertex_count = out.positions.count;

    if (const int i = attribute("NORMAL"); i != -2) {
      MOTE_TRY_ASSIGN(out.normals, view_accessor(i, TINYGLTF_TYPE_VEC3, {TINYGLTF_COMPONENT_TYPE_FLOAT},
                                                 kMaxMeshVertices, "NORMAL", where + "/attributes/NORMAL"));
      if (out.normals->count != vertex_count)
        return fail("NORMAL has " + std::to_string(out.normals->count) + " elements, POSITION " +
                        std::to_string(vertex_count),
                    where + "/attributes/NORMAL");
    }
    if (const int i = attribute("TEXCOORD_0"); i != -2) {
      MOTE_TRY_ASSIGN(out.uvs, view_accessor(i, TINYGLTF_TYPE_VEC2,
                                             {TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                              TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
                                             kMaxMeshVertices, "TEXCOORD_0", where + "/attributes/TEXCOORD_0"));
      if (out.uvs->count != vertex_count)
        return fail("TEXCOORD_0 has " + std::to_string(out.uvs->count) + " elements, POSITION " +
                        std::to_string(vertex_count),
                    where + "/attributes/TEXCOORD_0");
      if (out.uvs->component_type != TINYGLTF_COMPONENT_TYPE_FLOAT && !out.uvs->normalized)
        return fail("integer TEXCOORD_0 must be normalized", out.uvs->where + "/normalized");
    }
    return out;
  }

  // The triangle list's indices, each checked against `vertex_count`; 0, 1, 2, ... when the
  // primitive has no index accessor.
  Result<std::vector<uint32_t>> read_indices(const tinygltf::Primitive& prim, size_t vertex_count,
                                             const std::string& where) const {
    std::vector<uint32_t> indices;
    if (prim.indices != -1) {
      MOTE_TRY_ASSIGN(const AccessorView view,
                      view_accessor(prim.indices, TINYGLTF_TYPE_SCALAR,
                                    {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT},
                                    kMaxMeshIndices, "indices", where + "/indices"));
      if (view.count % 3 != 0)
        return fail("a triangle list needs a multiple of 3 indices, not " + std::to_string(view.count), view.where);
      indices.resize(view.count);
      for (size_t k = 0; k < view.count; ++k) {
        indices[k] = view.read_uint(k);
        if (indices[k] >= vertex_count)
          return fail("indices[" + std::to_string(k) + "] = " + std::to_string(indices[k]) + " is out of range of " +
                          std::to_string(vertex_count) + " vertices",
                      where + "/indices");
      }
      return indices;
    }
    if (vertex_count % 3 != 0)
      return fail("a non-indexed triangle list needs a multiple of 3 vertices, not " + std::to_string(vertex_count),
                  where + "/attributes/POSITION");
    indices.resize(vertex_count);
    for (size_t k = 0; k < vertex_count; ++k) indices[k] = uint32_t(k);
    return indices;
  }

  // Sets every vertex's position to its POSITION in world space; refuses a non-finite one.
  Status transform_positions(const AccessorView& positions, const glm::dmat4& world,
                             std::vector<MeshVertex>& vertices) const {
    for (size_t v = 0; v < vertices.size(); ++v) {
      const glm::dvec4 p(positions.read_float(v, 0), positions.read_float(v, 1), positions.read_float(v, 2), 1.0);
      const glm::vec3 w(world * p);
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) || !std::isfinite(w.x) ||
          !std::isfinite(w.y) || !std::isfinite(w.z))
        return fail("POSITION[" + std::to_string(v) + "] is not finite (in the file or once transformed)",
                    positions.where);
      std::memcpy(vertices[v].position, &w, sizeof(float) * 3);
    }
    return {};
  }

  // Sets every vertex's uv from TEXCOORD_0 (floats, or normalized unsigned bytes or shorts).
  Status read_uvs(const AccessorView& uvs, std::vector<MeshVertex>& vertices) const {
    for (size_t v = 0; v < vertices.size(); ++v)
      for (size_t c = 0; c < 2; ++c) {
        float t;
        switch (uvs.component_type) {
          case TINYGLTF_COMPONENT_TYPE_FLOAT: t = uvs.read_float(v, c); break;
          case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: t = float(uvs.element(v)[c]) / 255.0f; break;
          default: {
            uint16_t s;
            std::memcpy(&s, uvs.element(v) + c * 2, 2);
            t = float(s) / 65535.0f;
          }
        }
        if (!std::isfinite(t)) return fail("TEXCOORD_0[" + std::to_string(v) + "] is not finite", uvs.where);
        vertices[v].uv[c] = t;
      }
    return {};
  }

  // Normals: the file's through the inverse transpose of `linear`; computed (area-weighted, from
  // the transformed triangles) when there are none, when the transform is singular, or for any
  // normal that is zero.
  Status set_normals(const std::optional<AccessorView>& normals, const glm::dmat3& linear,
                     const std::vector<uint32_t>& indices, std::vector<MeshVertex>& vertices) const {
    const double det = glm::determinant(linear);
    std::vector<bool> needs_normal(vertices.size(), true);
    if (normals && std::isfinite(det) && det != 0.0) {
      const glm::dmat3 normal_matrix = glm::transpose(glm::inverse(linear));
      for (size_t v = 0; v < vertices.size(); ++v) {
        const glm::dvec3 n(normals->read_float(v, 0), normals->read_float(v, 1), normals->read_float(v, 2));
        if (!std::isfinite(n.x) || !std::isfinite(n.y) || !std::isfinite(n.z))
          return fail("NORMAL[" + std::to_string(v) + "] is not finite", normals->where);
        const glm::dvec3 t = normal_matrix * n;
        const double len = glm::length(t);
        if (!(len > 1e-12) || !std::isfinite(len)) continue;
        const glm::vec3 unit(t / len);
        std::memcpy(vertices[v].normal, &unit, sizeof(float) * 3);
        needs_normal[v] = false;
      }
    }
    if (std::find(needs_normal.begin(), needs_normal.end(), true) != needs_normal.end())
      fill_area_weighted_normals(vertices, indices, needs_normal);
    return {};
  }

  const tinygltf::Model& model_;
  std::string name_;
  std::vector<uint8_t> state_;
  Mesh mesh_;
};

}  // namespace

Result<Mesh> decode_gltf(std::span<const uint8_t> bytes, const std::filesystem::path& base_dir, std::string_view name) {
  const std::string where(name);
  if (bytes.size() > kMaxGltfFileBytes)
    return make_error(ErrorCode::kFormat, "file of " + std::to_string(bytes.size()) + " bytes is over the 1 GiB limit",
                      where);
  const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;

  // The JSON text: all of a .gltf, a .glb's JSON chunk. A .glb whose chunk does not fit is left
  // to tinygltf, which refuses the container before parsing any JSON.
  std::span<const uint8_t> json = binary ? std::span<const uint8_t>() : bytes;
  if (binary && bytes.size() >= 20) {
    uint32_t json_length = 0;
    std::memcpy(&json_length, bytes.data() + 12, 4);
    if (uint64_t(json_length) <= bytes.size() - 20) json = bytes.subspan(20, json_length);
  }
  if (!json_nesting_within(json, kMaxJsonNesting))
    return make_error(ErrorCode::kParse, "JSON nests deeper than " + std::to_string(kMaxJsonNesting) + " levels",
                      where);

  FsContext fs_context;
  // An empty base_dir is the working directory (a model named without a folder lives there).
  const std::string base = base_dir.empty() ? std::string(".") : base_dir.string();
  std::error_code ec;
  fs_context.base = std::filesystem::weakly_canonical(base, ec);
  if (ec) return make_error(ErrorCode::kNotFound, "cannot resolve the model's folder: " + ec.message(), where);
  tinygltf::TinyGLTF loader;
  loader.SetFsCallbacks({fs_file_exists, fs_expand_path, fs_read_whole_file, fs_write_whole_file, &fs_context});
  loader.SetImageLoader(skip_image, nullptr);

  tinygltf::Model model;
  std::string err, warn;
  bool loaded = false;
  try {
    loaded = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), unsigned(bytes.size()), base)
                    : loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                                 unsigned(bytes.size()), base);
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::kOutOfMemory, "out of memory while parsing", where);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kParse, std::string("tinygltf: ") + e.what(), where);
  }
  if (!loaded) {
    err = trim(std::move(err));
    if (err.empty()) err = "the file was rejected without a reason";
    // The container is binary; what is inside (and all of a .gltf) is JSON.
    ErrorCode code = binary && err.find("json.exception") == std::string::npos ? ErrorCode::kFormat : ErrorCode::kParse;
    if (err.find("File not found") != std::string::npos) code = ErrorCode::kNotFound;
    else if (fs_context.read_failed) code = ErrorCode::kIo;
    return make_error(code, "tinygltf: " + err, where);
  }
  return Flattener(model, name).run();
}

Result<Mesh> load_gltf(const std::filesystem::path& path) {
  const std::string name = path.string();
  MOTE_TRY_ASSIGN(auto bytes, read_file_bytes(name, kMaxGltfFileBytes));
  return decode_gltf(bytes, path.parent_path(), name);
}

}  // namespace mote::assets
