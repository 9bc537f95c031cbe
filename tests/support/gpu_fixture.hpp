// A GoogleTest fixture that creates a Vulkan device with the validation layer on and turns every
// validation message into a failure of the test that caused it.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/device.hpp"
#include "gpu/instance.hpp"
#include "support/vulkan_drivers_kept.hpp"

namespace mote::test {

class ValidationCapture {
 public:
  ValidationCapture() {
    previous_ = gpu::set_validation_handler([this](const gpu::ValidationMessage& m) {
      std::lock_guard lock(mutex_);
      messages_.push_back(m.id_name + ": " + m.text);
    });
  }
  ~ValidationCapture() { gpu::set_validation_handler(std::move(previous_)); }
  std::vector<std::string> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(messages_, {});
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
  gpu::ValidationHandler previous_;
};

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    keep_vulkan_drivers_loaded();
    auto created = gpu::Device::create({.validation = true});
    ASSERT_TRUE(created.ok()) << created.error().to_string();
    device_ = std::move(created).value();
  }
  void TearDown() override {
    if (device_) {
      EXPECT_TRUE(device_->wait_idle().ok());
      device_.reset();  // destruction is validated too
    }
    for (const std::string& m : capture_.take()) ADD_FAILURE() << "Vulkan validation: " << m;
  }
  gpu::Device& device() { return *device_; }
  std::vector<std::string> take_validation_messages() { return capture_.take(); }

  ValidationCapture capture_;  // first member: outlives the device
  std::unique_ptr<gpu::Device> device_;
};

}  // namespace mote::test
