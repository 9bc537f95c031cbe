// A Vulkan header may include Vulkan.
#pragma once
#include <vulkan/vulkan.h>
#include "mote/result.hpp"
