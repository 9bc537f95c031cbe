// One standard particle (shared/particle.h) into the record at `slot`, words 1..20 after its
// header: the manual driver's fill and patch. The includer declares Params params and, writable,
// Pool pool[]; `slot` is below params.capacity and the record holds the standard particle.
void manual_write_particle(uint slot, Particle p) {
  uint w = slot * params.record_words + kParticleFirstWord;
  for (uint c = 0u; c < 3u; ++c) pool[w + c] = floatBitsToUint(p.position[c]);
  for (uint c = 0u; c < 3u; ++c) pool[w + 3u + c] = floatBitsToUint(p.velocity[c]);
  pool[w + 6u] = floatBitsToUint(p.age);
  pool[w + 7u] = floatBitsToUint(p.lifetime);
  pool[w + 8u] = floatBitsToUint(p.size);
  pool[w + 9u] = floatBitsToUint(p.size_growth);
  pool[w + 10u] = floatBitsToUint(p.angle);
  pool[w + 11u] = floatBitsToUint(p.angular_velocity);
  for (uint c = 0u; c < 4u; ++c) pool[w + 12u + c] = floatBitsToUint(p.color[c]);
  for (uint c = 0u; c < 4u; ++c) pool[w + 16u + c] = floatBitsToUint(p.uv_rect[c]);
}
