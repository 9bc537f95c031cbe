// Push constants and blocks of the media passes (src/media/, shaders/media/): the noise bake and
// the froxel fog's passes. std430/push-constant rules of shared/interop.h; the density function
// and the volume row are in shared/media_density.h.
#ifndef MOTE_SHADERS_SHARED_MEDIA_PASSES_H
#define MOTE_SHADERS_SHARED_MEDIA_PASSES_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// The noise bake (noise_bake.comp): one invocation per 32-bit word of a bordered tile laid out in
// rows of row_words words (4 r8unorm texels a word, x fastest; past the tile's width the word's
// texels are 0), tile rows a layer, tile layers.
struct MediaBakePush {
  uint content;
  uint border;
  uint octaves;
  uint row_words;
};
MOTE_ASSERT_SIZE(MediaBakePush, 16);
MOTE_ASSERT_OFFSET(MediaBakePush, content, 0);
MOTE_ASSERT_OFFSET(MediaBakePush, border, 4);
MOTE_ASSERT_OFFSET(MediaBakePush, octaves, 8);
MOTE_ASSERT_OFFSET(MediaBakePush, row_words, 12);

MOTE_SHARED_END
#endif
