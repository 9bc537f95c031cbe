// The runtime controls of EmitterLifecycle (docs/design/drivers.md, "Runtime controls"): bits of
// the row's record that the tick and the simulate read (shared/emitter_record.h), and the
// constant pose of an emitter placed by value. Each edits the emitter and notes its row; the next
// frame's flush restages the record, so nothing here waits or uploads.
#include <cmath>
#include <string>

#include "runtime/frame/emitter_lifecycle.hpp"

namespace mote::runtime {

Status EmitterLifecycle::set_control(uint32_t row, uint32_t flag, bool on) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  if (flag == 0 || (flag & ~shader::kEmitterControlFlags) != 0)
    return make_error(ErrorCode::kInvalidArgument, "not a runtime control flag: " + std::to_string(flag));
  Emitter& e = rows_[row]->emitter;
  const uint32_t next = on ? (e.control_flags | flag) : (e.control_flags & ~flag);
  if (next == e.control_flags) return ok_status();  // nothing to restage
  e.control_flags = next;
  edited(row);
  return ok_status();
}

Status EmitterLifecycle::set_pose(uint32_t row, const std::array<float, 3>& position,
                                  const std::array<float, 4>* rotation) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  Row& r = *rows_[row];
  if (r.emitter.transform_row != shader::kEmitterNoTransform)
    return make_error(ErrorCode::kInvalidArgument,
                      "the emitter at row " + std::to_string(row) + " stands at transform row " +
                          std::to_string(r.emitter.transform_row) + ": move the transform instead");
  for (float v : position)
    if (!std::isfinite(v)) return make_error(ErrorCode::kInvalidArgument, "emitter position: a non-finite value");
  const std::array<float, 4> turn = rotation ? *rotation
                                             : std::array<float, 4>{r.emitter.rotation[0], r.emitter.rotation[1],
                                                                    r.emitter.rotation[2], r.emitter.rotation[3]};
  float length_squared = 0.0f;
  for (float v : turn) {
    if (!std::isfinite(v)) return make_error(ErrorCode::kInvalidArgument, "emitter rotation: a non-finite value");
    length_squared += v * v;
  }
  if (!(length_squared > 0.0f)) return make_error(ErrorCode::kInvalidArgument, "emitter rotation: a zero quaternion");
  for (int i = 0; i < 3; ++i) r.emitter.position[i] = r.options.position[i] = position[i];
  for (int i = 0; i < 4; ++i) r.emitter.rotation[i] = r.options.rotation[i] = turn[i];
  edited(row);
  return ok_status();
}

}  // namespace mote::runtime
