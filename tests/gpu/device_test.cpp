#include <gtest/gtest.h>

#include <cstdlib>

#include "gpu/physical_device.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::gpu {
namespace {

using test::GpuTest;

TEST_F(GpuTest, CreatesASuitableVulkan13DeviceWithValidation) {
  const auto& d = device().description();
  EXPECT_TRUE(d.suitable) << d.unsuitable_reason;
  EXPECT_FALSE(d.name.empty());
  EXPECT_GE(d.api_version, VK_API_VERSION_1_3);
  EXPECT_GT(d.subgroup_size, 0u);
  EXPECT_GT(d.limits.timestampPeriod, 0.0f);
  EXPECT_TRUE(device().validation_enabled());
  EXPECT_FALSE(device().choice_reason().empty());
  EXPECT_FALSE(device().all_devices().empty());
}

PhysicalDeviceDescription fake(uint32_t index, const char* name, VkPhysicalDeviceType type, bool suitable = true) {
  PhysicalDeviceDescription d;
  d.index = index;
  d.name = name;
  d.type = type;
  d.suitable = suitable;
  if (!suitable) d.unsuitable_reason = "no synchronization2";
  return d;
}

class DeviceChoiceTest : public ::testing::Test {
 protected:
  void SetUp() override { unsetenv("MOTE_DEVICE"); }
  void TearDown() override { unsetenv("MOTE_DEVICE"); }
  std::vector<PhysicalDeviceDescription> devices{
      fake(0, "llvmpipe (LLVM 15.0.6, 256 bits)", VK_PHYSICAL_DEVICE_TYPE_CPU),
      fake(1, "Intel(R) UHD Graphics", VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU),
      fake(2, "NVIDIA H200", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU),
      fake(3, "Old GPU", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, false),
  };
};

TEST_F(DeviceChoiceTest, PrefersDiscreteThenIntegratedThenCpu) {
  auto c = choose_device(devices, "");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->index, 2u);
  devices[2].suitable = false;
  c = choose_device(devices, "");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->index, 1u);
  devices[1].suitable = false;
  c = choose_device(devices, "");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->index, 0u);
}

TEST_F(DeviceChoiceTest, SelectorByIndexTypeAndName) {
  EXPECT_EQ(choose_device(devices, "1")->index, 1u);
  EXPECT_EQ(choose_device(devices, "cpu")->index, 0u);
  EXPECT_EQ(choose_device(devices, "LLVMPIPE")->index, 0u);
  EXPECT_EQ(choose_device(devices, "h200")->index, 2u);
}

TEST_F(DeviceChoiceTest, EnvironmentOverridesAutomaticChoice) {
  setenv("MOTE_DEVICE", "llvmpipe", 1);
  auto c = choose_device(devices, "");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->index, 0u);
  EXPECT_NE(c->reason.find("MOTE_DEVICE"), std::string::npos);
  // An explicit selector (the CLI flag) wins over the environment.
  EXPECT_EQ(choose_device(devices, "2")->index, 2u);
}

TEST_F(DeviceChoiceTest, BadSelectionsAreClearErrors) {
  auto c = choose_device(devices, "9");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("only 4 devices"), std::string::npos);
  c = choose_device(devices, "no such gpu");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, ErrorCode::kNotFound);
  c = choose_device(devices, "3");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("no synchronization2"), std::string::npos);
  EXPECT_FALSE(choose_device({}, "").ok());
  for (auto& d : devices) d.suitable = false;
  EXPECT_FALSE(choose_device(devices, "").ok());
}

}  // namespace
}  // namespace mote::gpu
