#include "runtime/frame/frame_vector_fields.hpp"

#include <string>
#include <utility>
#include <vector>

#include "gpu/transfer.hpp"
#include "runtime/frame/frame_buffers.hpp"

namespace mote::runtime {
namespace {

constexpr VkDeviceSize kHeaderBytes = sizeof(VectorFieldTable::headers);

}  // namespace

Result<FrameVectorFields> FrameVectorFields::create(gpu::Device& device) {
  FrameVectorFields f;
  MOTE_TRY_ASSIGN(f.headers_, make_frame_buffer(device, kHeaderBytes, kFrameStorageUsage, "mote.frame.field_headers"));
  MOTE_TRY_ASSIGN(f.values_, make_frame_buffer(device, 16, kFrameStorageUsage, "mote.frame.field_values"));
  const std::vector<uint8_t> zeros(size_t(kHeaderBytes), 0);
  MOTE_TRY(gpu::upload(device, f.headers_, zeros));
  MOTE_TRY(gpu::upload(device, f.values_, std::span(zeros).first(16)));
  return f;
}

Status FrameVectorFields::set(uint32_t slot, std::optional<VectorField> field) {
  if (slot >= fields_.size())
    return make_error(ErrorCode::kInvalidArgument,
                      "vector field slot " + std::to_string(slot) + " >= " + std::to_string(fields_.size()), "slot");
  if (field) {
    if (Status checked = check_vector_field(*field); !checked.ok()) {
      Error e = checked.error();
      e.where = "field." + e.where;
      return e;
    }
  }
  fields_[slot] = std::move(field);
  dirty_ = true;
  return ok_status();
}

const VectorField* FrameVectorFields::field(uint32_t slot) const {
  return slot < fields_.size() && fields_[slot] ? &*fields_[slot] : nullptr;
}

Status FrameVectorFields::prepare(gpu::Device& device, FrameUploads& uploads, RetiredBuffers& retired, uint32_t frame) {
  if (!dirty_) return ok_status();
  std::array<const VectorField*, shader::kVmVectorFields> slots{};
  for (uint32_t i = 0; i < slots.size(); ++i) slots[i] = field(i);
  VectorFieldTable table = vector_field_table(slots);
  // One zero float when no field is set: the buffer is never empty.
  if (table.values.empty()) table.values.assign(4, 0.0f);
  const VkDeviceSize value_bytes = VkDeviceSize(table.values.size()) * sizeof(float);
  MOTE_TRY_ASSIGN(gpu::Buffer headers,
                  make_frame_buffer(device, kHeaderBytes, kFrameStorageUsage, "mote.frame.field_headers"));
  MOTE_TRY_ASSIGN(gpu::Buffer values,
                  make_frame_buffer(device, value_bytes, kFrameStorageUsage, "mote.frame.field_values"));
  retired.retire(std::exchange(headers_, std::move(headers)), frame);
  retired.retire(std::exchange(values_, std::move(values)), frame);
  table_ = std::move(table);
  uploads.add(headers_, 0, table_.headers.data(), kHeaderBytes);
  uploads.add(values_, 0, table_.values.data(), value_bytes);
  dirty_ = false;
  return ok_status();
}

}  // namespace mote::runtime
