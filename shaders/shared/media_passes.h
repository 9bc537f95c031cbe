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

// The froxel fog's frame block (uniform; the inject, light, integrate and composite passes):
// the camera now and a frame ago (for the reprojection), the grid, the sun and the ambient.
struct MediaFrame {
  mat4 inverse_view_projection;   // clip (Vulkan, reversed-Z) -> world
  mat4 previous_view_projection;  // world -> the previous frame's clip
  mat4 sun_view_projection;       // world -> the sun's shadow clip ([0, 1] depth, not reversed)
  vec4 camera_position;           // xyz
  vec4 camera_forward;            // xyz: where the camera looks (unit)
  vec4 depth_range;               // x: near, y: far (view depth, metres), z: slices, w: this frame's history weight
  vec4 grid_size;                 // xyz: froxels across, down, in depth; w: Henyey-Greenstein g
  vec4 sun_direction;             // xyz: the way the light travels (unit); w: 1 when there is a sun
  vec4 sun_radiance;              // rgb: colour x intensity; w: shadow map texel size (0: unshadowed)
  vec4 ambient;                   // rgb: the isotropic radiance the medium scatters; w: 0
  uvec4 counts;                   // x: volumes, y: point lights, z: frame index, w: 1 when history is valid
};
MOTE_ASSERT_SIZE(MediaFrame, 320);
MOTE_ASSERT_OFFSET(MediaFrame, inverse_view_projection, 0);
MOTE_ASSERT_OFFSET(MediaFrame, previous_view_projection, 64);
MOTE_ASSERT_OFFSET(MediaFrame, sun_view_projection, 128);
MOTE_ASSERT_OFFSET(MediaFrame, camera_position, 192);
MOTE_ASSERT_OFFSET(MediaFrame, camera_forward, 208);
MOTE_ASSERT_OFFSET(MediaFrame, depth_range, 224);
MOTE_ASSERT_OFFSET(MediaFrame, grid_size, 240);
MOTE_ASSERT_OFFSET(MediaFrame, sun_direction, 256);
MOTE_ASSERT_OFFSET(MediaFrame, sun_radiance, 272);
MOTE_ASSERT_OFFSET(MediaFrame, ambient, 288);
MOTE_ASSERT_OFFSET(MediaFrame, counts, 304);

// The pass decorrelation offsets of the two jittered passes (media_jitter): two passes drawing the
// same number lock their nuisance variables together, which no accumulation window recovers.
MOTE_CONSTANT(uint, kMediaInjectDecorrelationX, 53u);
MOTE_CONSTANT(uint, kMediaInjectDecorrelationY, 97u);
MOTE_CONSTANT(uint, kMediaLightDecorrelationX, 37u);
MOTE_CONSTANT(uint, kMediaLightDecorrelationY, 71u);
MOTE_CONSTANT(uint, kMediaIrradianceDecorrelationX, 29u);
MOTE_CONSTANT(uint, kMediaIrradianceDecorrelationY, 113u);

// The irradiance pass (froxel_irradiance.comp, beside the MediaFrame block it shares with the
// fog): the hemisphere ambient's two ends, which the fog's frame block keeps only the mean of.
struct IrradiancePush {
  vec4 sky_ambient;     // rgb: irradiance on a surface facing up
  vec4 ground_ambient;  // rgb: facing down
};
MOTE_ASSERT_SIZE(IrradiancePush, 32);
MOTE_ASSERT_OFFSET(IrradiancePush, sky_ambient, 0);
MOTE_ASSERT_OFFSET(IrradiancePush, ground_ambient, 16);

// How a draw reads the integrated fog (the composite, and particles on both draw paths,
// shaders/media/fog_apply.glsl): the grid's depth range. w = 0: no fog, the read is skipped.
struct MediaFogSampling {
  vec4 depth_range;  // x: near, y: far, z: slices, w: 1 when there is fog
};
MOTE_ASSERT_SIZE(MediaFogSampling, 16);
MOTE_ASSERT_OFFSET(MediaFogSampling, depth_range, 0);

MOTE_SHARED_END
#endif
