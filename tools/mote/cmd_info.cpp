// mote info: the Vulkan devices found, the one chosen and why, and the limits Mote cares about.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/device.hpp"

namespace mote::cli {

namespace {

nlohmann::json device_json(const DeviceInfo& p) {
  return {{"index", p.index},
          {"name", p.name},
          {"type", device_type_name(p.type)},
          {"vulkan", vulkan_version_string(p.api_version)},
          {"vendor_id", p.vendor_id},
          {"device_id", p.device_id},
          {"driver", p.driver_name},
          {"driver_info", p.driver_info},
          {"subgroup_size", p.subgroup_size},
          {"device_local_bytes", p.device_local_bytes},
          {"suitable", p.suitable},
          {"unsuitable_reason", p.unsuitable_reason}};
}

void print_json(const DeviceReport& d) {
  nlohmann::json devices = nlohmann::json::array();
  for (const DeviceInfo& p : d.devices) devices.push_back(device_json(p));
  const DeviceLimits& l = d.limits;
  const nlohmann::json out = {{"devices", devices},
                              {"chosen", device_json(d.chosen)},
                              {"reason", d.choice_reason},
                              {"validation", d.validation},
                              {"limits",
                               {{"max_storage_buffer_range", l.max_storage_buffer_range},
                                {"max_workgroup_size", l.max_workgroup_size},
                                {"max_workgroup_invocations", l.max_workgroup_invocations},
                                {"max_workgroup_count", l.max_workgroup_count},
                                {"max_shared_memory_bytes", l.max_shared_memory_bytes},
                                {"max_push_constants_bytes", l.max_push_constants_bytes},
                                {"max_storage_buffers_per_stage", l.max_storage_buffers_per_stage},
                                {"timestamp_period_ns", l.timestamp_period_ns}}}};
  std::printf("%s\n", out.dump(2).c_str());
}

}  // namespace

void add_info_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("info", "List Vulkan devices, the one Mote chooses and why, and its limits");
  struct Options {
    std::string device_selector;
    bool validation = false;
    bool json_output = false;
  };
  // Owned by the callback, which the app keeps for its lifetime.
  auto opts = std::make_shared<Options>();
  cmd->add_option("--device", opts->device_selector,
                  "index, type (discrete|integrated|cpu) or name substring; default MOTE_DEVICE, then automatic");
  cmd->add_flag("--validation", opts->validation, "enable the Khronos validation layer");
  cmd->add_flag("--json", opts->json_output, "print one JSON document");
  cmd->callback([&exit_code, opts] {
    auto context = Context::create({.validation = opts->validation, .device = opts->device_selector});
    if (!context.ok()) {
      exit_code = report_error("info", "", context.error(), kExitSystem);
      return;
    }
    const DeviceReport d = describe_device(**context);
    if (opts->json_output) {
      print_json(d);
      return;
    }
    fmt::print("Vulkan devices:\n");
    for (const DeviceInfo& p : d.devices) {
      fmt::print("  [{}] {} ({}), Vulkan {}, driver {} {}{}\n", p.index, p.name, device_type_name(p.type),
                 vulkan_version_string(p.api_version), p.driver_name, p.driver_info,
                 p.suitable ? "" : "  -- unsuitable: " + p.unsuitable_reason);
    }
    const DeviceInfo& c = d.chosen;
    const DeviceLimits& l = d.limits;
    fmt::print("chosen: [{}] {} — {}\n", c.index, c.name, d.choice_reason);
    fmt::print("  vulkan                  {}\n", vulkan_version_string(c.api_version));
    fmt::print("  driver                  {} ({})\n", c.driver_name, c.driver_info);
    fmt::print("  vendor:device           0x{:04x}:0x{:04x}\n", c.vendor_id, c.device_id);
    fmt::print("  device-local memory     {:.1f} GiB\n", double(c.device_local_bytes) / double(1ull << 30));
    fmt::print("  subgroup size           {}\n", c.subgroup_size);
    fmt::print("  max storage buffer      {} bytes\n", l.max_storage_buffer_range);
    fmt::print("  max workgroup size      {} x {} x {} ({} invocations)\n", l.max_workgroup_size[0],
               l.max_workgroup_size[1], l.max_workgroup_size[2], l.max_workgroup_invocations);
    fmt::print("  max workgroup count     {} x {} x {}\n", l.max_workgroup_count[0], l.max_workgroup_count[1],
               l.max_workgroup_count[2]);
    fmt::print("  shared memory           {} bytes\n", l.max_shared_memory_bytes);
    fmt::print("  push constants          {} bytes\n", l.max_push_constants_bytes);
    fmt::print("  storage buffers/stage   {}\n", l.max_storage_buffers_per_stage);
    fmt::print("  timestamp period        {} ns\n", l.timestamp_period_ns);
    fmt::print("  validation              {}\n", d.validation ? "on" : "off");
  });
}

}  // namespace mote::cli
