// mote selftest: run a compute pass on the chosen device and verify every element.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/device.hpp"

namespace mote::cli {

void add_selftest_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("selftest", "Run and verify a compute pass on the chosen device");
  struct Options {
    std::string device_selector;
    bool validation = false;
    uint32_t elements = 1u << 20;
    bool json_output = false;
  };
  // Owned by the callback, which the app keeps for its lifetime.
  auto opts = std::make_shared<Options>();
  cmd->add_option("--device", opts->device_selector, "device selector (see mote info)");
  cmd->add_flag("--validation", opts->validation, "enable the Khronos validation layer");
  cmd->add_option("--elements", opts->elements, "elements to compute")->check(CLI::Range(1u, 1u << 28));
  cmd->add_flag("--json", opts->json_output, "print one JSON object");
  cmd->callback([&exit_code, opts] {
    auto context = Context::create({.validation = opts->validation, .device = opts->device_selector});
    if (!context.ok()) {
      exit_code = report_error("selftest", "", context.error(), kExitSystem);
      return;
    }
    const std::string device_name = (*context)->device_name();
    auto report = run_selftest(**context, opts->elements);
    if (!report.ok()) {
      exit_code = report_error("selftest", "", report.error(), kExitSystem);
      return;
    }
    if (opts->json_output)
      fmt::print("{{\"device\":{},\"elements\":{},\"mismatches\":{},\"gpu_ms\":{:.4f},\"ok\":{}}}\n",
                 nlohmann::json(device_name).dump(), report->elements, report->mismatches, report->gpu_ms,
                 report->mismatches == 0);
    if (report->mismatches) {
      fmt::print(stderr, "mote selftest: FAILED on {}: {} of {} elements wrong (first at {})\n", device_name,
                 report->mismatches, report->elements, report->first_mismatch);
      exit_code = 1;
      return;
    }
    if (!opts->json_output)
      fmt::print("mote selftest: ok on {}: saxpy over {} elements verified, {:.3f} ms on the GPU\n", device_name,
                 report->elements, report->gpu_ms);
  });
}

}  // namespace mote::cli
