// mote info: the Vulkan devices found, the one chosen and why, and the limits Mote cares about.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <string>

#include "commands.hpp"
#include "gpu/device.hpp"

namespace mote::cli {

void add_info_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("info", "List Vulkan devices, the one Mote chooses and why, and its limits");
  struct Options {
    std::string device_selector;
    bool validation = false;
  };
  // Owned by the callback, which the app keeps for its lifetime.
  auto opts = std::make_shared<Options>();
  cmd->add_option("--device", opts->device_selector, "index, type (discrete|integrated|cpu) or name substring; default MOTE_DEVICE, then automatic");
  cmd->add_flag("--validation", opts->validation, "enable the Khronos validation layer");
  cmd->callback([&exit_code, opts] {
    auto device = gpu::Device::create({.validation = opts->validation, .device_selector = opts->device_selector});
    if (!device.ok()) {
      fmt::print(stderr, "mote info: {}\n", device.error().to_string());
      exit_code = 1;
      return;
    }
    const gpu::Device& d = **device;
    fmt::print("Vulkan devices:\n");
    for (const auto& p : d.all_devices()) {
      fmt::print("  [{}] {} ({}), Vulkan {}, driver {} {}{}\n", p.index, p.name, gpu::device_type_name(p.type),
                 gpu::api_version_string(p.api_version), p.driver_name, p.driver_info,
                 p.suitable ? "" : "  -- unsuitable: " + p.unsuitable_reason);
    }
    const auto& c = d.description();
    const auto& l = c.limits;
    fmt::print("chosen: [{}] {} — {}\n", c.index, c.name, d.choice_reason());
    fmt::print("  vulkan                  {}\n", gpu::api_version_string(c.api_version));
    fmt::print("  driver                  {} ({})\n", c.driver_name, c.driver_info);
    fmt::print("  vendor:device           0x{:04x}:0x{:04x}\n", c.vendor_id, c.device_id);
    fmt::print("  device-local memory     {:.1f} GiB\n", double(c.device_local_bytes) / double(1ull << 30));
    fmt::print("  subgroup size           {}\n", c.subgroup_size);
    fmt::print("  max storage buffer      {} bytes\n", l.maxStorageBufferRange);
    fmt::print("  max workgroup size      {} x {} x {} ({} invocations)\n", l.maxComputeWorkGroupSize[0],
               l.maxComputeWorkGroupSize[1], l.maxComputeWorkGroupSize[2], l.maxComputeWorkGroupInvocations);
    fmt::print("  max workgroup count     {} x {} x {}\n", l.maxComputeWorkGroupCount[0],
               l.maxComputeWorkGroupCount[1], l.maxComputeWorkGroupCount[2]);
    fmt::print("  shared memory           {} bytes\n", l.maxComputeSharedMemorySize);
    fmt::print("  push constants          {} bytes\n", l.maxPushConstantsSize);
    fmt::print("  storage buffers/stage   {}\n", l.maxPerStageDescriptorStorageBuffers);
    fmt::print("  timestamp period        {} ns\n", l.timestampPeriod);
    fmt::print("  validation              {}\n", d.validation_enabled() ? "on" : "off");
  });
}

}  // namespace mote::cli
