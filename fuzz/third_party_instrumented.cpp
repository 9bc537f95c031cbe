// The packaged stb_image and tinygltf (libstb.so, libtinygltf.so) are built without coverage
// instrumentation or sanitizers: fuzzing through them, libFuzzer would be blind inside the very
// parsers it is meant to explore. The image and glTF harnesses compile both implementations here,
// from the same Debian headers, with the harness's instrumentation; a definition in the
// executable takes precedence over the shared library's, so mote_assets calls these.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE        // stb_image is defined above; Mote decodes no glTF images
#define TINYGLTF_NO_STB_IMAGE_WRITE  // and writes none
#include <tiny_gltf.h>
