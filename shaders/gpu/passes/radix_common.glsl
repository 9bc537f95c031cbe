// Shared by the radix sort's passes: the push constants, the flat tile index (dispatches wider
// than maxComputeWorkGroupCount[0] = 65535 are split over y) and a key's digit in this pass.
#include "shared/radix_sort.h"

layout(push_constant) uniform Push { RadixSortParams params; };

uint tile_index() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

uint key_digit(uint key) { return (key >> params.shift) & params.digit_mask; }
