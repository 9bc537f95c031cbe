// The stateless driver (docs/design/drivers.md, "The stateless driver"): emitter rows whose
// particles are evaluated, not simulated. Each row is a manual row of `emission.capacity` records
// (runtime::ManualDrivers places them once through the frame's spawn path and keeps their slots
// in its slot map; simulate keeps them without running UPDATE); every frame the GPU interpreter
// (shaders/vm_gpu/run_program.comp, fast or wide as the program fits) runs the effect's EVAL for
// particles [0, count) at the row's own clock into the row's evaluation buffer, and
// stateless_scatter.comp copies record i over the pool slot the map holds for particle i. The
// clock is host state: time() the next frame evaluates, advanced after each frame by dt × scale.
// So the frame's work does not depend on the clock or the scale: one eval and one scatter
// dispatch of `count` per row.
#pragma once

#include <cstdint>
#include <map>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/drivers/manual_driver.hpp"
#include "runtime/frame/emitter_lifecycle.hpp"
#include "runtime/frame/frame_recording.hpp"
#include "shared/vm_gpu.h"
#include "sim/stateless_eval.hpp"
#include "vm_gpu/gpu_executor.hpp"

namespace mote::runtime {

class StatelessDrivers {
 public:
  static Result<StatelessDrivers> create(gpu::Device& device);

  // A live manual row (ManualDrivers::add with eval.count records, set_count(count)) becomes
  // stateless: its interpreter pipeline, program image and buffers are made here (the image's
  // upload waits for the GPU once).
  Status add(gpu::Device& device, uint32_t row, sim::StatelessEvaluation eval, uint32_t pool_record_words);
  void remove(uint32_t row) { rows_.erase(row); }
  bool is_stateless(uint32_t row) const { return rows_.count(row) != 0; }

  // The clock (errors: kInvalidArgument for a non-finite value, kNotFound for another row).
  Status set_time(uint32_t row, double time);
  Status set_time_scale(uint32_t row, double scale);
  Result<double> time(uint32_t row) const;
  Result<double> time_scale(uint32_t row) const;
  uint32_t count(uint32_t row) const;
  const sim::StatelessEvaluation* evaluation(uint32_t row) const;

  // Before the manual drivers' prepare: a row active and not placed under its generation asks
  // for its records to be placed (a manual upload of its zeroed records).
  Status prepare(const EmitterLifecycle& emitters, ManualDrivers& manual);
  // With the frame's uploads (before their barrier to compute): each row's run parameters at its
  // clock.
  void record_uploads(VkCommandBuffer cmd, const EmitterLifecycle& emitters) const;
  // After the manual drivers' fills (so a placing frame's slot map is written), before simulate:
  // the evaluation and the scatter of every active row.
  void record(const FrameRecording& frame, const EmitterLifecycle& emitters, const ManualDrivers& manual) const;
  // After the frame was recorded: each clock advances by dt × scale (a paused or inactive row's
  // stands).
  void recorded(float dt, const EmitterLifecycle& emitters);

 private:
  struct Row {
    sim::StatelessEvaluation eval;
    double time = 0.0;
    double scale = 1.0;
    GpuInterpreter which = GpuInterpreter::kWide;
    uint32_t eval_words = 0;  // the evaluation buffer's stride: the record rounded up to 4 words
    gpu::ComputePipeline interpreter;
    GpuProgramImage image;
    gpu::Buffer program;    // image.words
    gpu::Buffer params;     // VmRunParams, rewritten each frame with the clock
    gpu::Buffer evaluated;  // count × eval_words words
  };
  static bool runs(const EmitterLifecycle& emitters, uint32_t row);
  Result<Row*> find(uint32_t row);
  Result<const Row*> find(uint32_t row) const;

  gpu::Device* device_ = nullptr;
  gpu::ComputePipeline scatter_;
  // What the interpreter binds and the driver never reads: the kill flags and events, the op
  // counts and the trace (each store clamped to the buffer), and the wide file, made on first use.
  gpu::Buffer outcomes_, op_counts_, trace_, wide_registers_;
  std::map<uint32_t, Row> rows_;
};

}  // namespace mote::runtime
