#version 460
// The noise tile's bake (src/media/noise_bake.cpp, docs/design/media.md "The noise tile"): every
// texel of a bordered tile — the skirt too, by wrapping the texel index as the host's skirt does
// — is media_bake_texel encoded as r8unorm, four texels a word, into a storage buffer the atlas
// then copies into its slot (r8unorm is not a storage-image format everywhere).
#include "shared/media_density.h"
#include "shared/media_passes.h"

layout(local_size_x = 64) in;
layout(push_constant) uniform Push { MediaBakePush push; };
layout(std430, binding = 0) writeonly buffer Words { uint words[]; };

void main() {
  uint tile = push.content + 2u * push.border;
  uint word = gl_GlobalInvocationID.x;
  if (word >= push.row_words * tile * tile) return;
  uint y = (word / push.row_words) % tile;
  uint z = word / (push.row_words * tile);
  uint x0 = (word % push.row_words) * 4u;
  uint packed = 0u;
  for (uint k = 0u; k < 4u; k++) {
    uint x = x0 + k;
    if (x < tile) packed |= media_unorm8(media_bake_texel(uvec3(x, y, z), push.content, push.border, push.octaves)) << (8u * k);
  }
  words[word] = packed;
}
