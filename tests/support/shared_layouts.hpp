// The C++ side of every struct shared with GLSL, for the SPIR-V layout test. Add a struct here
// when you add it to shaders/shared/.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "shared/compute_path.h"
#include "shared/frame.h"
#include "shared/gpu_selftest.h"
#include "shared/particle_render.h"
#include "shared/radix_sort.h"
#include "shared/render_passes.h"
#include "shared/scan.h"
#include "shared/transform.h"
#include "shared/vm_gpu.h"

namespace mote::test {

struct SharedLayout {
  std::string type;
  std::map<std::string, size_t> members;
};

#define MOTE_MEMBER(T, m) {#m, offsetof(T, m)}

inline std::vector<SharedLayout> shared_layouts() {
  using namespace mote::shader;
  return {
      {"SaxpyParams", {MOTE_MEMBER(SaxpyParams, a), MOTE_MEMBER(SaxpyParams, b), MOTE_MEMBER(SaxpyParams, count),
                       MOTE_MEMBER(SaxpyParams, pad0)}},
      {"IndirectDispatch",
       {MOTE_MEMBER(IndirectDispatch, groups_x), MOTE_MEMBER(IndirectDispatch, groups_y),
        MOTE_MEMBER(IndirectDispatch, groups_z), MOTE_MEMBER(IndirectDispatch, element_count)}},
      {"IndirectArgsParams",
       {MOTE_MEMBER(IndirectArgsParams, element_count), MOTE_MEMBER(IndirectArgsParams, local_size),
        MOTE_MEMBER(IndirectArgsParams, pad0), MOTE_MEMBER(IndirectArgsParams, pad1)}},
      {"RooflineParams",
       {MOTE_MEMBER(RooflineParams, first_vec4), MOTE_MEMBER(RooflineParams, count_vec4),
        MOTE_MEMBER(RooflineParams, pad0), MOTE_MEMBER(RooflineParams, pad1)}},
      {"RecordAccessParams",
       {MOTE_MEMBER(RecordAccessParams, record_count), MOTE_MEMBER(RecordAccessParams, salt),
        MOTE_MEMBER(RecordAccessParams, pad0), MOTE_MEMBER(RecordAccessParams, pad1)}},
      {"VmWindField", {MOTE_MEMBER(VmWindField, base_velocity), MOTE_MEMBER(VmWindField, turbulence)}},
      {"VmRunParams",
       {MOTE_MEMBER(VmRunParams, emitter_position), MOTE_MEMBER(VmRunParams, emitter_direction),
        MOTE_MEMBER(VmRunParams, emitter_up), MOTE_MEMBER(VmRunParams, emitter_rotation), MOTE_MEMBER(VmRunParams, wind),
        MOTE_MEMBER(VmRunParams, dt), MOTE_MEMBER(VmRunParams, time), MOTE_MEMBER(VmRunParams, emitter_age),
        MOTE_MEMBER(VmRunParams, emitter_seed), MOTE_MEMBER(VmRunParams, count), MOTE_MEMBER(VmRunParams, record_words),
        MOTE_MEMBER(VmRunParams, rng_base), MOTE_MEMBER(VmRunParams, first_particle_index),
        MOTE_MEMBER(VmRunParams, code_offset), MOTE_MEMBER(VmRunParams, code_length),
        MOTE_MEMBER(VmRunParams, constants_offset), MOTE_MEMBER(VmRunParams, constants_words),
        MOTE_MEMBER(VmRunParams, emitter_fields_offset), MOTE_MEMBER(VmRunParams, emitter_fields_words),
        MOTE_MEMBER(VmRunParams, globals_offset), MOTE_MEMBER(VmRunParams, globals_words), MOTE_MEMBER(VmRunParams, flags),
        MOTE_MEMBER(VmRunParams, launch_lanes), MOTE_MEMBER(VmRunParams, register_count), MOTE_MEMBER(VmRunParams, record_capacity), MOTE_MEMBER(VmRunParams, shapes_offset),
        MOTE_MEMBER(VmRunParams, window_first_chunk), MOTE_MEMBER(VmRunParams, window_chunks),
        MOTE_MEMBER(VmRunParams, window_dirty_mask)}},
      {"ScanParams",
       {MOTE_MEMBER(ScanParams, count), MOTE_MEMBER(ScanParams, level), MOTE_MEMBER(ScanParams, flags),
        MOTE_MEMBER(ScanParams, count_word)}},
      {"RadixSortParams",
       {MOTE_MEMBER(RadixSortParams, count), MOTE_MEMBER(RadixSortParams, count_word),
        MOTE_MEMBER(RadixSortParams, flags), MOTE_MEMBER(RadixSortParams, shift),
        MOTE_MEMBER(RadixSortParams, digit_mask), MOTE_MEMBER(RadixSortParams, pad0),
        MOTE_MEMBER(RadixSortParams, pad1), MOTE_MEMBER(RadixSortParams, pad2)}},
      {"RadixSortState",
       {MOTE_MEMBER(RadixSortState, count), MOTE_MEMBER(RadixSortState, tiles),
        MOTE_MEMBER(RadixSortState, scan_count), MOTE_MEMBER(RadixSortState, pad0)}},
      {"TilePathParams",
       {MOTE_MEMBER(TilePathParams, width), MOTE_MEMBER(TilePathParams, height), MOTE_MEMBER(TilePathParams, tiles_x),
        MOTE_MEMBER(TilePathParams, tiles_y), MOTE_MEMBER(TilePathParams, capacity),
        MOTE_MEMBER(TilePathParams, max_particles), MOTE_MEMBER(TilePathParams, record_words),
        MOTE_MEMBER(TilePathParams, record_count), MOTE_MEMBER(TilePathParams, alive_count_word),
        MOTE_MEMBER(TilePathParams, max_pairs), MOTE_MEMBER(TilePathParams, mode), MOTE_MEMBER(TilePathParams, pad0)}},
      {"TileCounters",
       {MOTE_MEMBER(TileCounters, bin_groups_x), MOTE_MEMBER(TileCounters, bin_groups_y),
        MOTE_MEMBER(TileCounters, bin_groups_z), MOTE_MEMBER(TileCounters, alive),
        MOTE_MEMBER(TileCounters, ranges_groups_x), MOTE_MEMBER(TileCounters, ranges_groups_y),
        MOTE_MEMBER(TileCounters, ranges_groups_z), MOTE_MEMBER(TileCounters, kept), MOTE_MEMBER(TileCounters, pairs),
        MOTE_MEMBER(TileCounters, dropped), MOTE_MEMBER(TileCounters, pad0), MOTE_MEMBER(TileCounters, pad1)}},
      {"TileParticleBin",
       {MOTE_MEMBER(TileParticleBin, first_tile), MOTE_MEMBER(TileParticleBin, last_tile),
        MOTE_MEMBER(TileParticleBin, depth_key), MOTE_MEMBER(TileParticleBin, tiles)}},
      {"TransformLocal",
       {MOTE_MEMBER(TransformLocal, position), MOTE_MEMBER(TransformLocal, rotation), MOTE_MEMBER(TransformLocal, scale),
        MOTE_MEMBER(TransformLocal, parent), MOTE_MEMBER(TransformLocal, pad0), MOTE_MEMBER(TransformLocal, pad1),
        MOTE_MEMBER(TransformLocal, pad2)}},
      {"TransformChannels",
       {MOTE_MEMBER(TransformChannels, position), MOTE_MEMBER(TransformChannels, direction),
        MOTE_MEMBER(TransformChannels, up), MOTE_MEMBER(TransformChannels, orientation)}},
      {"TransformLevelParams",
       {MOTE_MEMBER(TransformLevelParams, first), MOTE_MEMBER(TransformLevelParams, count),
        MOTE_MEMBER(TransformLevelParams, pad0), MOTE_MEMBER(TransformLevelParams, pad1)}},
      {"FrameParams",
       {MOTE_MEMBER(FrameParams, dt), MOTE_MEMBER(FrameParams, row_count), MOTE_MEMBER(FrameParams, command_count),
        MOTE_MEMBER(FrameParams, capacity), MOTE_MEMBER(FrameParams, record_words), MOTE_MEMBER(FrameParams, serial_word),
        MOTE_MEMBER(FrameParams, constants_base), MOTE_MEMBER(FrameParams, code_base),
        MOTE_MEMBER(FrameParams, field_base), MOTE_MEMBER(FrameParams, time), MOTE_MEMBER(FrameParams, pad1),
        MOTE_MEMBER(FrameParams, pad2)}},
      {"FrameCounters",
       {MOTE_MEMBER(FrameCounters, alive_in), MOTE_MEMBER(FrameCounters, alive_out), MOTE_MEMBER(FrameCounters, free_count),
        MOTE_MEMBER(FrameCounters, budget), MOTE_MEMBER(FrameCounters, newborns), MOTE_MEMBER(FrameCounters, dropped),
        MOTE_MEMBER(FrameCounters, killed), MOTE_MEMBER(FrameCounters, orphaned), MOTE_MEMBER(FrameCounters, emit_groups_x),
        MOTE_MEMBER(FrameCounters, emit_groups_y), MOTE_MEMBER(FrameCounters, emit_groups_z),
        MOTE_MEMBER(FrameCounters, spawned_total), MOTE_MEMBER(FrameCounters, simulate_groups_x),
        MOTE_MEMBER(FrameCounters, simulate_groups_y), MOTE_MEMBER(FrameCounters, simulate_groups_z),
        MOTE_MEMBER(FrameCounters, frames)}},
      {"EmitterRecord",
       {MOTE_MEMBER(EmitterRecord, position), MOTE_MEMBER(EmitterRecord, rotation), MOTE_MEMBER(EmitterRecord, direction),
        MOTE_MEMBER(EmitterRecord, up), MOTE_MEMBER(EmitterRecord, program_id), MOTE_MEMBER(EmitterRecord, constants_offset),
        MOTE_MEMBER(EmitterRecord, constants_length), MOTE_MEMBER(EmitterRecord, init_offset),
        MOTE_MEMBER(EmitterRecord, init_length), MOTE_MEMBER(EmitterRecord, update_offset),
        MOTE_MEMBER(EmitterRecord, update_length), MOTE_MEMBER(EmitterRecord, field_offset),
        MOTE_MEMBER(EmitterRecord, field_words), MOTE_MEMBER(EmitterRecord, global_offset),
        MOTE_MEMBER(EmitterRecord, global_words), MOTE_MEMBER(EmitterRecord, seed), MOTE_MEMBER(EmitterRecord, spawn_rate),
        MOTE_MEMBER(EmitterRecord, transform_row), MOTE_MEMBER(EmitterRecord, generation), MOTE_MEMBER(EmitterRecord, flags),
        MOTE_MEMBER(EmitterRecord, capacity_hint), MOTE_MEMBER(EmitterRecord, register_count),
        MOTE_MEMBER(EmitterRecord, record_words), MOTE_MEMBER(EmitterRecord, pad0)}},
      {"FrameBurst",
       {MOTE_MEMBER(FrameBurst, time), MOTE_MEMBER(FrameBurst, count), MOTE_MEMBER(FrameBurst, cycles),
        MOTE_MEMBER(FrameBurst, interval)}},
      {"FrameEmitterState",
       {MOTE_MEMBER(FrameEmitterState, generation), MOTE_MEMBER(FrameEmitterState, accumulator),
        MOTE_MEMBER(FrameEmitterState, age), MOTE_MEMBER(FrameEmitterState, pending), MOTE_MEMBER(FrameEmitterState, spawned),
        MOTE_MEMBER(FrameEmitterState, spawn_first), MOTE_MEMBER(FrameEmitterState, tick),
        MOTE_MEMBER(FrameEmitterState, spawn_count)}},
      {"FramePush",
       {MOTE_MEMBER(FramePush, program), MOTE_MEMBER(FramePush, first_dispatch), MOTE_MEMBER(FramePush, only_dispatch),
        MOTE_MEMBER(FramePush, section_offset), MOTE_MEMBER(FramePush, section_words), MOTE_MEMBER(FramePush, pad0),
        MOTE_MEMBER(FramePush, pad1), MOTE_MEMBER(FramePush, pad2)}},
      {"FrameFieldBinding",
       {MOTE_MEMBER(FrameFieldBinding, word), MOTE_MEMBER(FrameFieldBinding, width),
        MOTE_MEMBER(FrameFieldBinding, transform_row), MOTE_MEMBER(FrameFieldBinding, channel)}},
      {"FrameFieldBindPush",
       {MOTE_MEMBER(FrameFieldBindPush, binding_count), MOTE_MEMBER(FrameFieldBindPush, pad0),
        MOTE_MEMBER(FrameFieldBindPush, pad1), MOTE_MEMBER(FrameFieldBindPush, pad2)}},
      {"ParticleDrawRecord",
       {MOTE_MEMBER(ParticleDrawRecord, position_word), MOTE_MEMBER(ParticleDrawRecord, size_word), MOTE_MEMBER(ParticleDrawRecord, color_word), MOTE_MEMBER(ParticleDrawRecord, velocity_word), MOTE_MEMBER(ParticleDrawRecord, rotation_word), MOTE_MEMBER(ParticleDrawRecord, rotation_width), MOTE_MEMBER(ParticleDrawRecord, uv_rect_word), MOTE_MEMBER(ParticleDrawRecord, frame_word), MOTE_MEMBER(ParticleDrawRecord, age_word), MOTE_MEMBER(ParticleDrawRecord, lifetime_word), MOTE_MEMBER(ParticleDrawRecord, flags), MOTE_MEMBER(ParticleDrawRecord, generation), MOTE_MEMBER(ParticleDrawRecord, flipbook_columns), MOTE_MEMBER(ParticleDrawRecord, flipbook_rows), MOTE_MEMBER(ParticleDrawRecord, soft_distance), MOTE_MEMBER(ParticleDrawRecord, size_scale), MOTE_MEMBER(ParticleDrawRecord, atlas_rect), MOTE_MEMBER(ParticleDrawRecord, tint)}},
      {"RenderView",
       {MOTE_MEMBER(RenderView, view), MOTE_MEMBER(RenderView, projection), MOTE_MEMBER(RenderView, view_projection), MOTE_MEMBER(RenderView, inverse_view_projection), MOTE_MEMBER(RenderView, sun_view_projection), MOTE_MEMBER(RenderView, camera_position), MOTE_MEMBER(RenderView, camera_right), MOTE_MEMBER(RenderView, camera_up), MOTE_MEMBER(RenderView, camera_forward), MOTE_MEMBER(RenderView, viewport), MOTE_MEMBER(RenderView, clip), MOTE_MEMBER(RenderView, sun_direction), MOTE_MEMBER(RenderView, sun_radiance), MOTE_MEMBER(RenderView, sky_ambient), MOTE_MEMBER(RenderView, ground_ambient), MOTE_MEMBER(RenderView, background), MOTE_MEMBER(RenderView, point_light_count), MOTE_MEMBER(RenderView, pad0), MOTE_MEMBER(RenderView, pad1), MOTE_MEMBER(RenderView, pad2)}},
      {"PointLightGpu",
       {MOTE_MEMBER(PointLightGpu, position_range), MOTE_MEMBER(PointLightGpu, radiance)}},
      {"OpaquePush",
       {MOTE_MEMBER(OpaquePush, model), MOTE_MEMBER(OpaquePush, base_color), MOTE_MEMBER(OpaquePush, emissive)}},
      {"ParticleDrawPush",
       {MOTE_MEMBER(ParticleDrawPush, record_words), MOTE_MEMBER(ParticleDrawPush, record_count), MOTE_MEMBER(ParticleDrawPush, capacity), MOTE_MEMBER(ParticleDrawPush, alive_count_word), MOTE_MEMBER(ParticleDrawPush, mesh_row), MOTE_MEMBER(ParticleDrawPush, pad0), MOTE_MEMBER(ParticleDrawPush, pad1), MOTE_MEMBER(ParticleDrawPush, pad2)}},
      {"DrawArgsParams",
       {MOTE_MEMBER(DrawArgsParams, alive_count_word), MOTE_MEMBER(DrawArgsParams, capacity), MOTE_MEMBER(DrawArgsParams, mesh_draws), MOTE_MEMBER(DrawArgsParams, pad0), MOTE_MEMBER(DrawArgsParams, mesh_index_counts)}},
      {"TonemapPush",
       {MOTE_MEMBER(TonemapPush, width), MOTE_MEMBER(TonemapPush, height), MOTE_MEMBER(TonemapPush, operator_id), MOTE_MEMBER(TonemapPush, exposure)}},
  };
}

#undef MOTE_MEMBER

}  // namespace mote::test
