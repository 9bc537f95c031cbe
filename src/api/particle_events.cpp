// include/mote/particle_events.hpp over the runtime's ParticleSystem (runtime/frame/frame_events.*).
#include "mote/particle_events.hpp"

#include <fmt/format.h>

#include "api/api_access.hpp"

namespace mote {

namespace {

Status check_live(runtime::ParticleSystem& system, EmitterId id, const char* where) {
  if (!system.is_live(id.row) || system.generation(id.row) != id.generation)
    return make_error(ErrorCode::kNotFound,
                      fmt::format("emitter {} (generation {}) is not live", id.row, id.generation), where);
  return ok_status();
}

}  // namespace

Status bind_event(ParticleSystem& system, EmitterId source, std::string_view output, EmitterId target) {
  runtime::ParticleSystem& s = detail::ApiAccess::state(system).system;
  MOTE_TRY(check_live(s, source, "source"));
  MOTE_TRY(check_live(s, target, "target"));
  return s.bind_event(source.row, output, target.row);
}

Status bind_event(ParticleSystem& system, EmitterId source, uint32_t output, EmitterId target) {
  runtime::ParticleSystem& s = detail::ApiAccess::state(system).system;
  MOTE_TRY(check_live(s, source, "source"));
  MOTE_TRY(check_live(s, target, "target"));
  return s.bind_event(source.row, output, target.row);
}

Status unbind_event(ParticleSystem& system, EmitterId source, uint32_t output, EmitterId target) {
  runtime::ParticleSystem& s = detail::ApiAccess::state(system).system;
  MOTE_TRY(check_live(s, source, "source"));
  MOTE_TRY(check_live(s, target, "target"));
  return s.unbind_event(source.row, output, target.row);
}

Result<EmitterEvents> read_emitter_events(ParticleSystem& system, EmitterId id) {
  runtime::ParticleSystem& s = detail::ApiAccess::state(system).system;
  MOTE_TRY(check_live(s, id, "id"));
  MOTE_TRY_ASSIGN(const std::vector<runtime::EmitterEventStats> rows, s.read_event_stats());
  if (id.row >= rows.size()) return EmitterEvents{};
  const runtime::EmitterEventStats& r = rows[id.row];
  return EmitterEvents{.sent = r.sent,
                       .received = r.received,
                       .queue_dropped = r.queue_dropped,
                       .children = r.children,
                       .spawned = r.spawned,
                       .spawns_dropped = r.spawns_dropped};
}

Result<EventQueueStats> read_event_queue(ParticleSystem& system) {
  runtime::ParticleSystem& s = detail::ApiAccess::state(system).system;
  MOTE_TRY_ASSIGN(const runtime::FrameEventTotals t, s.read_event_totals());
  return EventQueueStats{.capacity = t.capacity, .queued = t.queued, .dropped = t.dropped};
}

}  // namespace mote
