// The stateless driver's frame work does not depend on its clock (docs/design/drivers.md, "The
// stateless driver"): the dispatches a frame records, and the size of each, are the same at time
// scales 1, 20 and -20, and at a jump — the eval and the scatter of the row's emission.capacity,
// once each.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/transfer.hpp"
#include "mote/effect.hpp"
#include "runtime/frame/particle_system.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::ParticleSystem;

using Dispatch = std::tuple<std::string, uint32_t, uint32_t, uint32_t, bool>;

class StatelessFrameTest : public test::GpuTest {
 protected:
  // One frame with the dispatch log on: every dispatch's pipeline and size (an indirect one's
  // arguments read back after it).
  std::vector<Dispatch> frame_dispatches(ParticleSystem& system) {
    std::vector<gpu::Device::DispatchRecord> log;
    device().set_dispatch_log(&log);
    const Status ran = system.execute(1.0f / 16.0f);
    device().set_dispatch_log(nullptr);
    EXPECT_TRUE(ran.ok()) << ran.error().to_string();
    std::vector<Dispatch> out;
    for (const gpu::Device::DispatchRecord& d : log) {
      Dispatch entry{d.pipeline, d.groups[0], d.groups[1], d.groups[2], d.indirect != nullptr};
      if (d.indirect) {
        Result<std::vector<uint32_t>> args = gpu::readback_as<uint32_t>(device(), *d.indirect, 3, d.indirect_offset);
        EXPECT_TRUE(args.ok());
        if (args.ok()) entry = {d.pipeline, (*args)[0], (*args)[1], (*args)[2], true};
      }
      out.push_back(entry);
    }
    return out;
  }
};

TEST_F(StatelessFrameTest, TheDispatchesAreTheSameAtEveryTimeScale) {
  std::ifstream file(std::string(MOTE_EFFECTS_DIR) + "/stateless/fountain.json");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  auto effect = compile_effect(text);
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  auto s = ParticleSystem::create(device(), {.capacity = 8192, .record_words = 32, .max_emitters = 2});
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  auto row = s->add_stateless_emitter(*effect, {.seed = 11});
  ASSERT_TRUE(row.ok()) << row.error().to_string();
  for (int f = 0; f < 3; ++f) ASSERT_TRUE(s->execute(1.0f / 16.0f).ok());  // placed, then steady
  const std::vector<Dispatch> at_one = frame_dispatches(*s);
  uint32_t stateless = 0;
  for (const Dispatch& d : at_one)
    if (std::get<0>(d).find("run_program") != std::string::npos ||
        std::get<0>(d).find("stateless") != std::string::npos)
      ++stateless;
  EXPECT_EQ(stateless, 2u);  // the eval and the scatter
  for (double scale : {20.0, -20.0}) {
    ASSERT_TRUE(s->stateless().set_time_scale(*row, scale).ok());
    for (int f = 0; f < 2; ++f) EXPECT_EQ(frame_dispatches(*s), at_one) << "scale " << scale;
  }
  ASSERT_TRUE(s->stateless().set_time(*row, -12345.5).ok());
  EXPECT_EQ(frame_dispatches(*s), at_one) << "after a jump";
  Result<double> t = s->stateless().time(*row);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, -12345.5 - 20.0 / 16.0);
}

}  // namespace
}  // namespace mote
