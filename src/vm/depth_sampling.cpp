#include "vm/depth_sampling.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

namespace mote {

namespace {

shader::mat4 matrix_of(const std::array<float, 16>& m) {
  shader::mat4 r;
  for (int c = 0; c < 4; ++c)
    for (int k = 0; k < 4; ++k) r[c][k] = m[size_t(c * 4 + k)];
  return r;
}

float depth_at(const shader::VmDepthView& v, std::span<const float> depths, uint32_t x, uint32_t y) {
  if (x >= v.size.x || y >= v.size.y) return 0.0f;
  const size_t at = size_t(y) * v.size.x + x;
  return at < depths.size() ? depths[at] : 0.0f;
}

Status check_matrix(const std::array<float, 16>& m, const char* name) {
  for (size_t i = 0; i < m.size(); ++i)
    if (!std::isfinite(m[i]))
      return make_error(ErrorCode::kInvalidArgument, std::string(name) + " holds a non-finite value",
                        std::string(name) + "[" + std::to_string(i) + "]");
  return ok_status();
}

}  // namespace

shader::VmDepthView depth_view(const DepthImage* image) {
  shader::VmDepthView v{};
  if (!image) return v;
  v.view_proj = matrix_of(image->view_proj);
  v.inv_view_proj = matrix_of(image->inv_view_proj);
  v.size = shader::uvec4(image->width, image->height, 1u, 0u);
  // Rounded once here: no executor divides by the image's size.
  v.texel = shader::vec4(float(image->width) * 0.5f, float(image->height) * 0.5f, 2.0f / float(image->width),
                         2.0f / float(image->height));
  return v;
}

shader::vec4 sample_depth_values(const shader::VmDepthView& v, std::span<const float> depths, shader::vec3 p,
                                 float thickness) {
  if (v.size.z == 0u || v.size.x == 0u || v.size.y == 0u) return shader::vec4(0.0f);
  const shader::vec4 ndc = shader::vm_depth_project(v, p);
  const uint32_t tx = shader::vm_depth_texel(ndc.x, v.texel.x, v.size.x);
  const uint32_t ty = shader::vm_depth_texel(ndc.y, v.texel.y, v.size.y);
  if (ndc.w == 0.0f || tx >= v.size.x || ty >= v.size.y) return shader::vec4(0.0f);
  return shader::vm_depth_collide(v, p, thickness, ndc, tx, ty, depth_at(v, depths, tx, ty),
                                  depth_at(v, depths, tx - 1u, ty), depth_at(v, depths, tx + 1u, ty),
                                  depth_at(v, depths, tx, ty - 1u), depth_at(v, depths, tx, ty + 1u));
}

std::vector<uint32_t> depth_buffer_words(const DepthImage* image) {
  const shader::VmDepthView v = depth_view(image);
  std::vector<uint32_t> words(sizeof(v) / 4);
  std::memcpy(words.data(), &v, sizeof(v));
  if (!image || image->depths.empty()) {
    words.push_back(0u);
    return words;
  }
  for (float d : image->depths) words.push_back(std::bit_cast<uint32_t>(d));
  return words;
}

Status check_depth_image_shape(const DepthImage* image) {
  if (!image) return ok_status();
  if (image->width == 0 || image->width > kMaxDepthImageSize || image->height == 0 ||
      image->height > kMaxDepthImageSize)
    return make_error(ErrorCode::kInvalidArgument,
                      "a depth image of " + std::to_string(image->width) + " x " + std::to_string(image->height) +
                          " texels (1 .. " + std::to_string(kMaxDepthImageSize) + " each side)",
                      "depth");
  if (image->depths.size() != size_t(image->width) * image->height)
    return make_error(ErrorCode::kInvalidArgument,
                      std::to_string(image->depths.size()) + " depths for " + std::to_string(image->width) + " x " +
                          std::to_string(image->height) + " texels",
                      "depth");
  return ok_status();
}

Status check_depth_image(const DepthImage& image) {
  if (image.width == 0 || image.width > kMaxDepthImageSize)
    return make_error(ErrorCode::kInvalidArgument, "width must be 1 .. " + std::to_string(kMaxDepthImageSize), "width");
  if (image.height == 0 || image.height > kMaxDepthImageSize)
    return make_error(ErrorCode::kInvalidArgument, "height must be 1 .. " + std::to_string(kMaxDepthImageSize),
                      "height");
  if (image.depths.size() != size_t(image.width) * image.height)
    return make_error(ErrorCode::kInvalidArgument,
                      std::to_string(image.depths.size()) + " depths for " + std::to_string(image.width) + " x " +
                          std::to_string(image.height) + " texels",
                      "depths");
  for (size_t i = 0; i < image.depths.size(); ++i)
    if (!(image.depths[i] >= 0.0f && image.depths[i] <= 1.0f))
      return make_error(ErrorCode::kInvalidArgument, "a depth must be finite and in [0, 1]",
                        "depths[" + std::to_string(i) + "]");
  MOTE_TRY(check_matrix(image.view_proj, "view_proj"));
  return check_matrix(image.inv_view_proj, "inv_view_proj");
}

}  // namespace mote
