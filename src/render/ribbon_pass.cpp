#include "render/ribbon_pass.hpp"

#include <bit>
#include <vector>

#include "gpu/commands.hpp"

namespace mote::render {

namespace {

// The build's writes and the previous frame's readers of its buffers (the draws, their indirect
// arguments, a readback) before this frame's writes.
constexpr VkPipelineStageFlags2 kReaderStages = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                                                VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;

}  // namespace

Result<RibbonPass> RibbonPass::create(gpu::Device& device, const RibbonPassOptions& options) {
  if (options.capacity == 0 || options.max_rows == 0)
    return make_error(ErrorCode::kInvalidArgument, "the ribbon pass needs a capacity and a row count above 0");
  RibbonPass p;
  p.device_ = &device;
  p.options_ = options;
  // Row keys: the rows 0 .. max_rows - 1 and all ones in these bits for a place that is no point.
  p.row_bits_ = std::min(32u, uint32_t(std::bit_width(options.max_rows)));
  MOTE_TRY_ASSIGN(p.sort_, gpu::RadixSort::create(device, options.capacity));
  MOTE_TRY_ASSIGN(p.scan_, gpu::PrefixScan::create(device, options.capacity));
  MOTE_TRY_ASSIGN(p.keys_pipeline_, gpu::ComputePipeline::create(device, "render/ribbon_keys"));
  MOTE_TRY_ASSIGN(p.points_pipeline_, gpu::ComputePipeline::create(device, "render/ribbon_points"));
  MOTE_TRY_ASSIGN(p.links_pipeline_, gpu::ComputePipeline::create(device, "render/ribbon_links"));
  MOTE_TRY_ASSIGN(p.pieces_pipeline_, gpu::ComputePipeline::create(device, "render/ribbon_pieces"));
  const uint64_t n = options.capacity;
  const auto buffer = [&](gpu::Buffer& out, uint64_t bytes, const char* name, VkBufferUsageFlags extra = 0) -> Status {
    MOTE_TRY_ASSIGN(out, gpu::Buffer::create(device, {.size = bytes,
                                                      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                               VK_BUFFER_USAGE_TRANSFER_DST_BIT | extra,
                                                      .name = name}));
    return ok_status();
  };
  MOTE_TRY(buffer(p.keys_, n * 4, "mote.render.ribbon_keys"));
  MOTE_TRY(buffer(p.values_, n * 4, "mote.render.ribbon_values"));
  MOTE_TRY(buffer(p.points_, n * sizeof(shader::RibbonPoint), "mote.render.ribbon_points"));
  MOTE_TRY(buffer(p.lengths_, n * 4, "mote.render.ribbon_lengths"));
  MOTE_TRY(buffer(p.distances_, n * 4, "mote.render.ribbon_distances"));
  MOTE_TRY(buffer(p.piece_counts_, n * 4, "mote.render.ribbon_piece_counts"));
  MOTE_TRY(buffer(p.places_, n * 4, "mote.render.ribbon_places"));
  MOTE_TRY(buffer(p.pieces_, n * shader::kRibbonMaxSubdivisions * 4, "mote.render.ribbon_pieces"));
  MOTE_TRY(buffer(p.counts_, shader::kRibbonCountWords * 4, "mote.render.ribbon_counts",
                  VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT));
  return p;
}

void RibbonPass::dispatch(VkCommandBuffer cmd, const gpu::ComputePipeline& pipeline, const ParticleInputs& in,
                          const gpu::Buffer& ribbons, uint32_t key,
                          std::initializer_list<gpu::BufferBinding> extra) const {
  std::vector<gpu::BufferBinding> bindings = {{0, in.pool}, {1, in.records}, {2, &ribbons}, {3, in.counters}};
  bindings.insert(bindings.end(), extra.begin(), extra.end());
  const shader::RibbonPush push{in.record_words, in.record_count, in.capacity, in.alive_count_word, key, 0, 0, 0};
  gpu::ComputeRecorder(*device_, cmd)
      .bind(pipeline)
      .buffers(std::span<const gpu::BufferBinding>(bindings))
      .push(push)
      .dispatch_threads(in.capacity);
}

Status RibbonPass::record(VkCommandBuffer cmd, const ParticleInputs& in, const gpu::Buffer& ribbons,
                          bool id_sort) const {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "ribbon pass used before create()");
  if (!in.pool || !in.alive || !in.counters || !in.records || in.record_words == 0)
    return make_error(ErrorCode::kInvalidArgument, "the ribbon pass needs the pool, alive list, counters and records");
  if (in.capacity == 0 || in.capacity > options_.capacity || in.record_count > options_.max_rows ||
      ribbons.size() < uint64_t(in.record_count) * sizeof(shader::RibbonRecord))
    return make_error(ErrorCode::kInvalidArgument, "the frame is larger than the ribbon pass was made for");
  gpu::memory_barrier(cmd, kReaderStages, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  uint32_t initial[shader::kRibbonCountWords] = {};
  initial[shader::kRibbonCountDrawOffset / 4] = 6;  // indexCount: two triangles per piece
  vkCmdUpdateBuffer(cmd, counts_.handle(), 0, sizeof(initial), initial);
  gpu::transfer_to_compute(cmd);

  const gpu::ScanCount count = gpu::ScanCount::from_buffer(*in.counters, in.alive_count_word);
  const auto keys = [&](uint32_t key) {
    dispatch(cmd, keys_pipeline_, in, ribbons, key, {{4, in.alive}, {5, &keys_}, {6, &values_}});
  };
  keys(shader::kRibbonKeySerial);
  MOTE_TRY(sort_.record(cmd, keys_, values_, count, 32));
  if (id_sort) {
    gpu::compute_to_compute(cmd);
    keys(shader::kRibbonKeyId);
    MOTE_TRY(sort_.record(cmd, keys_, values_, count, 32));
  }
  gpu::compute_to_compute(cmd);
  keys(shader::kRibbonKeyRow);
  MOTE_TRY(sort_.record(cmd, keys_, values_, count, row_bits_));
  gpu::compute_to_compute(cmd);
  dispatch(cmd, points_pipeline_, in, ribbons, 0, {{4, &values_}, {5, &points_}});
  gpu::compute_to_compute(cmd);
  dispatch(cmd, links_pipeline_, in, ribbons, 0, {{4, &points_}, {5, &lengths_}, {6, &piece_counts_}});
  MOTE_TRY(scan_.record(cmd, lengths_, distances_, count, gpu::ScanKind::kExclusive));
  gpu::compute_to_compute(cmd);  // the two scans share the scan's scratch
  MOTE_TRY(scan_.record(cmd, piece_counts_, places_, count, gpu::ScanKind::kExclusive));
  gpu::compute_to_compute(cmd);
  dispatch(cmd, pieces_pipeline_, in, ribbons, 0,
           {{4, &points_}, {5, &distances_}, {6, &piece_counts_}, {7, &places_}, {8, &pieces_}, {9, &counts_}});
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, kReaderStages,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT |
                          VK_ACCESS_2_TRANSFER_READ_BIT);
  return ok_status();
}

}  // namespace mote::render
