# The GPU radix sort of (key, value) u32 pairs (src/gpu/passes/radix_sort.hpp,
# docs/design/runtime_passes.md).
mote_shader(NAME gpu/passes/radix_setup SOURCE gpu/passes/radix_setup.comp)
mote_shader(NAME gpu/passes/radix_copy SOURCE gpu/passes/radix_copy.comp)
mote_shader(NAME gpu/passes/radix_histogram SOURCE gpu/passes/radix_histogram.comp)
mote_shader(NAME gpu/passes/radix_scatter SOURCE gpu/passes/radix_scatter.comp)
