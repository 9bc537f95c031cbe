// Allowed: standard headers and other public headers.
#pragma once
#include <cstdint>
#include <vector>
  #  include <string_view>
#include "mote/result.hpp"
