// Mote's version: the one place it is written. The top-level CMakeLists.txt reads these three
// macros for project(VERSION), so the CMake package (mote-config-version.cmake), the pkg-config
// file, `mote --version` and this header always agree. Versioning and what each release changed:
// CHANGELOG.md.
#pragma once

#define MOTE_VERSION_MAJOR 0
#define MOTE_VERSION_MINOR 1
#define MOTE_VERSION_PATCH 0

#define MOTE_VERSION_TEXT_(major, minor, patch) #major "." #minor "." #patch
#define MOTE_VERSION_TEXT(major, minor, patch) MOTE_VERSION_TEXT_(major, minor, patch)
// "MAJOR.MINOR.PATCH", as `mote --version` prints it.
#define MOTE_VERSION_STRING MOTE_VERSION_TEXT(MOTE_VERSION_MAJOR, MOTE_VERSION_MINOR, MOTE_VERSION_PATCH)

namespace mote {

inline constexpr int kVersionMajor = MOTE_VERSION_MAJOR;
inline constexpr int kVersionMinor = MOTE_VERSION_MINOR;
inline constexpr int kVersionPatch = MOTE_VERSION_PATCH;
inline constexpr const char* kVersionString = MOTE_VERSION_STRING;

}  // namespace mote
