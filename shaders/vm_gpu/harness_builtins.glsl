// LOAD_BUILTIN for the run-one-program harnesses (run_program.comp, the interpreters' harness,
// and run_compiled.comp, the compiled kernels'): engine builtins from VmRunParams, emitter and
// global fields from the program buffer, every index clamped to its section. The including
// shader declares `params` (VmRunParams), `vm_particle` (the particle's index in the run) and
// `uint vm_program_word(uint index)` (a program-buffer word, clamped to the buffer).
#include "vm_gpu/field_builtins.glsl"

vec4 vm_load_builtin(uint id, uint lanes) {
  uint space = id >> kVmBuiltinSpaceShift;
  uint index = id & kVmBuiltinIndexMask;
  vec4 v = vec4(0.0f);
  if (space == kVmSpaceEmitterField || space == kVmSpaceGlobalField) {
    bool emitter = space == kVmSpaceEmitterField;
    uint offset = emitter ? params.emitter_fields_offset : params.globals_offset;
    uint words = emitter ? params.emitter_fields_words : params.globals_words;
    return vm_field_lanes(offset, words, index, lanes);
  }
  if (space != kVmSpaceEngine) return v;
  if (index == VM_BUILTIN_DT) v.x = params.dt;
  else if (index == VM_BUILTIN_TIME) v.x = params.time;
  else if (index == VM_BUILTIN_EMITTER_AGE) v.x = params.emitter_age;
  else if (index == VM_BUILTIN_EMITTER_POSITION) v = vec4(params.emitter_position.xyz, 0.0f);
  else if (index == VM_BUILTIN_EMITTER_DIRECTION) v = vec4(params.emitter_direction.xyz, 0.0f);
  else if (index == VM_BUILTIN_EMITTER_UP) v = vec4(params.emitter_up.xyz, 0.0f);
  else if (index == VM_BUILTIN_EMITTER_ROTATION) v = params.emitter_rotation;
  else if (index == VM_BUILTIN_PARTICLE_INDEX) v.x = float(params.first_particle_index + vm_particle);
  else if (index == VM_BUILTIN_SPAWN_INDEX) v.x = float(vm_particle);
  else if (index == VM_BUILTIN_SPAWN_FRACTION) v.x = (float(vm_particle) + 0.5f) / float(params.count);
  else if (index == VM_BUILTIN_SPAWN_COUNT) v.x = float(params.count);
  else if (index == VM_BUILTIN_EMITTER_SEED) v.x = float(params.emitter_seed & 0xFFFFFFu);
  return vec4(v.x, lanes > 1u ? v.y : 0.0f, lanes > 2u ? v.z : 0.0f, lanes > 3u ? v.w : 0.0f);
}
