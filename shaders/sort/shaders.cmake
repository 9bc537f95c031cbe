# The GPU radix sort of (key, value) u32 pairs (src/runtime_passes/radix_sort.hpp,
# docs/design/runtime_passes.md).
mote_shader(NAME sort/radix_setup SOURCE sort/radix_setup.comp)
mote_shader(NAME sort/radix_copy SOURCE sort/radix_copy.comp)
mote_shader(NAME sort/radix_histogram SOURCE sort/radix_histogram.comp)
mote_shader(NAME sort/radix_scatter SOURCE sort/radix_scatter.comp)
