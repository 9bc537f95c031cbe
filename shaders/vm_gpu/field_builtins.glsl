// LOAD_BUILTIN of an emitter or global field, for every host of the VM (the run-one-program
// harnesses' harness_builtins.glsl and the frame's frame_vm.glsl): `lanes` words from `index`
// of the `words` field words that start at program word `offset`, each index clamped to the
// fields, zero when there are none. The includer defines `uint vm_program_word(uint index)` (a
// program-buffer word, clamped to the buffer); only where the fields are differs between hosts.
float vm_field_word(uint offset, uint words, uint index) {
  if (words == 0u) return 0.0f;
  return uintBitsToFloat(vm_program_word(offset + min(index, words - 1u)));
}
vec4 vm_field_lanes(uint offset, uint words, uint index, uint lanes) {
  return vec4(vm_field_word(offset, words, index), lanes > 1u ? vm_field_word(offset, words, index + 1u) : 0.0f,
              lanes > 2u ? vm_field_word(offset, words, index + 2u) : 0.0f,
              lanes > 3u ? vm_field_word(offset, words, index + 3u) : 0.0f);
}
