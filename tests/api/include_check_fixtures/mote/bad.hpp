// Each marked line breaks the rule.
#pragma once
#include <glm/glm.hpp>  // expect-violation: third-party
#include "shared/vm_semantics.h"  // expect-violation: shaders/
#include "../../src/core/file.hpp"  // expect-violation: src/ by a relative path
#include "mote/../../src/core/file.hpp"  // expect-violation: out of mote/ by ..
#include <vulkan/vulkan.h>  // expect-violation: Vulkan outside the Vulkan headers
#include <stdio.h>  // expect-violation: the C header, not <cstdio>
#include "result.hpp"  // expect-violation: not spelled mote/...
