// `mote bench [--small] [--json] [--device SEL]`: the benchmarks (mote/bench.hpp) on the chosen
// device — the copy roofline, the VM's GPU executors, the GPU frame, the draw paths — as one
// table with each figure's ratio to the roofline measured in the same run, or one JSON object a
// line per figure with --json. --small sizes them for lavapipe. The programs in bench/ run the
// same code with every option (docs/PERFORMANCE.md).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/bench.hpp"
#include "mote/device.hpp"

namespace mote::cli {

void add_bench_command(CLI::App& app, int& exit_code) {
  struct Options {
    bool small = false;
    bool json_output = false;
    std::string device;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("bench", "Run the benchmarks: each figure against a same-run copy roofline");
  cmd->add_flag("--small", o->small, "small sizes, for a CPU driver (lavapipe) or a quick check");
  cmd->add_flag("--json", o->json_output, "one JSON object a line per figure");
  cmd->add_option("--device", o->device, "device index or name substring (see mote info)");
  cmd->callback([o, &exit_code] {
    Result<std::unique_ptr<Context>> context = Context::create({.device = o->device});
    if (!context) {
      exit_code = report_error("bench", "", context.error(), kExitSystem);
      return;
    }
    const DeviceReport device = describe_device(**context);
    if (!o->json_output) {
      std::printf("mote bench on %s (%s)%s\n", device.chosen.name.c_str(), device.chosen.driver_info.c_str(),
                  o->small ? ", small sizes" : "");
      std::printf("%-34s %12s %10s %10s  %s\n", "figure", "median ms", "GB/s", "of roof", "what");
    }
    Result<std::vector<BenchFigure>> figures =
        run_benchmarks(**context, {.small = o->small}, [&](const BenchFigure& f) {
          if (o->json_output) {
            const nlohmann::json line = {{"figure", f.name},   {"ms", f.ms},
                                         {"gbps", f.gbps},     {"of_roofline", f.of_roofline},
                                         {"detail", f.detail}, {"device", device.chosen.name}};
            std::printf("%s\n", line.dump().c_str());
          } else {
            std::printf("%-34s %12.4f %10.2f %9.1f%%  %s\n", f.name.c_str(), f.ms, f.gbps, 100.0 * f.of_roofline,
                        f.detail.c_str());
          }
          std::fflush(stdout);
        });
    exit_code = figures ? kExitOk : report_error("bench", "", figures.error(), kExitSystem);
  });
}

}  // namespace mote::cli
