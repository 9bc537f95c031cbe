// Vector field sampling on the device (shaders/vm_gpu/vector_field_fetch.glsl, the shared
// arithmetic of shaders/shared/vm_vector_field.h), lavapipe with validation on: a packed table of
// two fields and an empty slot (src/sim/vector_field_table.hpp), sampled at points inside,
// outside, on the box's faces and corners and at NaN, equals the host's
// sample_vector_field_table bit for bit; a slot past the table reads 0.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/transfer.hpp"
#include "sim/vector_field_table.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using test::GpuTest;

VectorField field_of(std::array<uint32_t, 3> size, std::array<float, 3> lo, std::array<float, 3> hi, float seed) {
  VectorField f;
  f.size = size;
  f.box_min = lo;
  f.box_max = hi;
  f.vectors.resize(size_t(size[0]) * size[1] * size[2] * 3);
  for (size_t i = 0; i < f.vectors.size(); ++i) f.vectors[i] = std::sin(float(i) * 0.731f + seed) * 3.0f;
  return f;
}

TEST_F(GpuTest, VectorFieldsSampleOnTheDeviceAsOnTheHostBitForBit) {
  const VectorField a = field_of({4, 3, 5}, {-2.0f, 0.0f, -1.0f}, {2.0f, 3.0f, 1.7f}, 0.0f);
  const VectorField b = field_of({2, 6, 3}, {10.0f, -4.0f, 0.0f}, {10.5f, 4.0f, 9.0f}, 1.3f);
  const VectorField* slots[] = {&a, nullptr, &b};
  auto table = pack_vector_fields(slots);
  ASSERT_TRUE(table.ok()) << table.error().to_string();

  std::vector<shader::vec4> points;
  uint32_t state = 99;
  auto next = [&](float lo, float hi) {
    state = state * 1664525u + 1013904223u;
    return lo + (hi - lo) * float(state >> 8) / 16777216.0f;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (uint32_t slot : {0u, 1u, 2u, 3u, 9u}) {
    for (int i = 0; i < 200; ++i)
      points.push_back({next(-4, 14), next(-6, 6), next(-3, 11), std::bit_cast<float>(slot)});
    for (const shader::vec3 p : {shader::vec3(-2.0f, 0.0f, -1.0f), shader::vec3(2.0f, 3.0f, 1.7f),
                                 shader::vec3(10.5f, 4.0f, 9.0f), shader::vec3(nan, 1.0f, nan), shader::vec3(1e30f)})
      points.push_back({p.x, p.y, p.z, std::bit_cast<float>(slot)});
  }
  const uint32_t count = uint32_t(points.size());

  auto pipeline = gpu::ComputePipeline::create(device(), "vm_gpu/sample_vector_field");
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().to_string();
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  auto headers = gpu::Buffer::create(device(),
                                     {.size = sizeof(table->headers), .usage = usage, .name = "test.headers"});
  auto values = gpu::Buffer::create(device(),
                                    {.size = table->values.size() * 4, .usage = usage, .name = "test.values"});
  auto in = gpu::Buffer::create(device(), {.size = count * 16ull, .usage = usage, .name = "test.points"});
  auto out = gpu::Buffer::create(device(), {.size = count * 16ull, .usage = usage, .name = "test.results"});
  ASSERT_TRUE(headers.ok() && values.ok() && in.ok() && out.ok());
  ASSERT_TRUE(gpu::upload_span<shader::VmVectorFieldHeader>(device(), *headers, table->headers).ok());
  ASSERT_TRUE(gpu::upload_span<float>(device(), *values, table->values).ok());
  ASSERT_TRUE(gpu::upload_span<shader::vec4>(device(), *in, points).ok());
  struct Push {
    uint32_t count;
  } push{count};
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    gpu::ComputeRecorder(device(), cmd)
                        .bind(*pipeline)
                        .buffers({{0, &*headers}, {1, &*values}, {2, &*in}, {3, &*out}})
                        .push(push)
                        .dispatch_threads(count);
                    gpu::compute_to_transfer(cmd);
                  })
                  .ok());
  auto results = gpu::readback_as<shader::vec4>(device(), *out, count);
  ASSERT_TRUE(results.ok()) << results.error().to_string();
  uint32_t nonzero = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const shader::vec4& p = points[i];
    const uint32_t slot = std::bit_cast<uint32_t>(p.w);
    const auto want = sample_vector_field_table(*table, slot, {p.x, p.y, p.z});
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(std::bit_cast<uint32_t>((*results)[i][c]), std::bit_cast<uint32_t>(want[size_t(c)]))
          << "point " << i << " slot " << slot << " component " << c << ": gpu " << (*results)[i][c] << " host "
          << want[size_t(c)];
      nonzero += want[size_t(c)] != 0.0f;
    }
  }
  EXPECT_GT(nonzero, 1000u) << "the fields were sampled, not only the empty slots";
}

}  // namespace
}  // namespace mote
