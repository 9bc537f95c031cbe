#include "media/noise_tile.hpp"

#include <fmt/format.h>

#include <cstring>

#include "shared/media_density.h"

namespace mote::media {

namespace {

constexpr uint32_t kMaxContent = 512;

Status check_tile_shape(uint32_t content, uint32_t border, const char* where) {
  if (content == 0 || content > kMaxContent)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("tile content {} is outside 1..{}", content, kMaxContent), where);
  if (border > content)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("a border of {} is wider than the content ({})", border, content), where);
  return ok_status();
}

}  // namespace

Result<std::vector<uint8_t>> bake_noise_tile_cpu(uint32_t content, uint32_t border, uint32_t octaves) {
  MOTE_TRY(check_tile_shape(content, border, "bake_noise_tile_cpu"));
  if (octaves == 0 || (shader::kMediaNoiseBasePeriod << (octaves - 1)) > content)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} octaves at base period {} do not fit a content of {} texels", octaves,
                                  shader::kMediaNoiseBasePeriod, content),
                      "bake_noise_tile_cpu");
  const uint32_t side = content + 2 * border;
  std::vector<uint8_t> texels(size_t(side) * side * side);
  size_t i = 0;
  for (uint32_t z = 0; z < side; ++z)
    for (uint32_t y = 0; y < side; ++y)
      for (uint32_t x = 0; x < side; ++x)
        texels[i++] = uint8_t(shader::media_unorm8(shader::media_bake_texel({x, y, z}, content, border, octaves)));
  return texels;
}

Result<std::vector<uint8_t>> bordered_block(std::span<const uint8_t> content_texels, uint32_t content, uint32_t border,
                                            uint32_t texel_bytes) {
  MOTE_TRY(check_tile_shape(content, border, "bordered_block"));
  const size_t expected = size_t(content) * content * content * texel_bytes;
  if (texel_bytes == 0 || content_texels.size() != expected)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("a tile of {}^3 texels of {} bytes is {} bytes; got {}", content, texel_bytes,
                                  expected, content_texels.size()),
                      "bordered_block");
  const uint32_t side = content + 2 * border;
  std::vector<uint8_t> out(size_t(side) * side * side * texel_bytes);
  uint8_t* dst = out.data();
  for (uint32_t z = 0; z < side; ++z) {
    const uint32_t sz = shader::media_skirt_source(z, content, border);
    for (uint32_t y = 0; y < side; ++y) {
      const uint32_t sy = shader::media_skirt_source(y, content, border);
      for (uint32_t x = 0; x < side; ++x) {
        const uint32_t sx = shader::media_skirt_source(x, content, border);
        const size_t src = ((size_t(sz) * content + sy) * content + sx) * texel_bytes;
        std::memcpy(dst, content_texels.data() + src, texel_bytes);
        dst += texel_bytes;
      }
    }
  }
  return out;
}

}  // namespace mote::media
