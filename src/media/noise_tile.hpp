// The built-in noise tile on the CPU: the same bake the GPU runs (shaders/media/noise_bake.comp),
// texel for texel from shaders/shared/media_density.h, and the bordered block a tile upload
// needs (the content with its skirt, the content wrapped). docs/design/media.md, "The noise tile".
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mote/result.hpp"

namespace mote::media {

// The bordered tile (content + 2 border texels a side, x fastest then y then z), each texel
// media_bake_texel encoded as r8unorm. Errors (kInvalidArgument): content 0 or past 512, a border
// wider than the content, octaves 0 or past the noise's period ceiling (base period << octave
// must stay within the content, 1 lattice cell per texel at the finest).
Result<std::vector<uint8_t>> bake_noise_tile_cpu(uint32_t content, uint32_t border, uint32_t octaves);

// `content` (content^3 texels of texel_bytes each) inside its skirt: each skirt texel repeats the
// content texel the wrapped index names. Errors (kInvalidArgument): a size that is not
// content^3 * texel_bytes, a border wider than the content.
Result<std::vector<uint8_t>> bordered_block(std::span<const uint8_t> content_texels, uint32_t content, uint32_t border,
                                            uint32_t texel_bytes);

}  // namespace mote::media
