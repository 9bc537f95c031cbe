#version 460
// Field bindings (docs/design/runtime_frame.md "Field bindings"): one invocation per row of the
// bindings table, recorded right after the transforms' compose pass and before the tick, so
// every VM pass of the frame reads this frame's transforms. Each row copies its transform row's
// channel (POSITION, DIRECTION, UP: xyz; ORIENTATION: a quaternion) into `width` words of the
// program image: an emitter's field, or one emitter's copy of a global. A bound word is
// rewritten from scratch every frame, so an upload landing on it earlier in the frame is
// overwritten before anything reads it. The only pass that writes the program image.
#include "shared/frame.h"
#include "shared/transform.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std430, binding = kFrameBindingFieldBindings) readonly buffer Bindings { FrameFieldBinding bindings[]; };
layout(std430, binding = kFrameBindingTransformChannels) readonly buffer Transforms { TransformChannels transform_channels[]; };
layout(std430, binding = kFrameBindingProgram) buffer ProgramWords { uint program_words[]; };

layout(push_constant) uniform Push { FrameFieldBindPush push; };

void main() {
  uint n = min(push.binding_count, uint(bindings.length()));
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  uint words = uint(program_words.length());
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
    FrameFieldBinding b = bindings[i];
    // The host checks rows, widths and words; these only guard memory.
    if (b.transform_row >= uint(transform_channels.length())) continue;
    uint width = min(b.width, 4u);
    if (b.word >= words || width > words - b.word) continue;
    TransformChannels c = transform_channels[b.transform_row];
    vec4 v = c.orientation;
    if (b.channel == kFrameChannelPosition) v = c.position;
    else if (b.channel == kFrameChannelDirection) v = c.direction;
    else if (b.channel == kFrameChannelUp) v = c.up;
    for (uint k = 0u; k < width; ++k) program_words[b.word + k] = floatBitsToUint(v[k]);
  }
}
