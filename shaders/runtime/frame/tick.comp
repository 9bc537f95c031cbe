#version 460
// The emitter tick (step 2 of docs/design/runtime_frame.md "One frame"): one thread per row. It
// recognises the row by generation (a mismatch starts the state over: a new emitter or a reused
// row, with nothing for the CPU to clear), advances the clock, integrates rate * dt into the
// accumulator (f32, in src/sim/emission.cpp's order, unfused), adds the effect's declared bursts
// due in [age before, age after) (bursts_due's rule and arithmetic), takes PENDING, and debits the
// spawn budget atomically, a workgroup at a time: what does not fit is dropped and counted, never carried (a full
// pool must not build a backlog). Writes the row's spawn count for the scan at the row's place in
// the spawn order (FrameSpawnRange), where every program's rows lie together.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/frame.h"
#include "shared/frame_events.h"
#ifdef FRAME_WARMUP
#include "shared/vm_semantics.h"  // vm_hash3
#endif

// 256 rows a workgroup: the budget is debited once per workgroup (see take_from_budget).
layout(local_size_x = 256) in;
shared uint s_subgroup_asked[256];  // per subgroup (a subgroup has at least one invocation)
shared uint s_workgroup_granted;

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingEmitters) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = kFrameBindingStates) buffer State { FrameEmitterState states[]; };
layout(std430, binding = kFrameBindingSpawnCounts) writeonly buffer SpawnCounts { uint spawn_counts[]; };
layout(std430, binding = kFrameBindingSpawnPlaces) readonly buffer SpawnPlaces { uint spawn_places[]; };
layout(std430, binding = kFrameBindingBursts) readonly buffer Bursts { FrameBurst bursts[]; };  // kFrameMaxBursts per row
// The bounds the previous frame published (frame_bounds_publish.comp): what culling tests.
layout(std430, binding = kFrameBindingEmitterBounds) readonly buffer Bounds { FrameEmitterBounds bounds[]; };
#ifdef FRAME_WARMUP
// The pre-warm's tick (docs/design/runtime_frame.md, "Pre-warm"): one invocation per queued
// emitter instead of per row, over the warm-up's own copy of the states; an emitter runs from
// its entry's first tick on, its accumulator starting at src/sim/warmup.cpp's jittered value.
// Nothing is culled, and queued burst() spawns wait for the emitter's first real tick.
layout(std430, binding = kFrameBindingWarmupQueue) readonly buffer Queue { FrameWarmupEntry queue[]; };
layout(push_constant) uniform Push { FrameWarmupPush push; };
#else
// The children of the events delivered to each row this frame (event_count.comp): asked for
// before the rate and the bursts, so the row's first `granted` newborns are its children
// (docs/design/events.md, "On the GPU"). The pre-warm delivers no events.
layout(std430, binding = kFrameBindingEventRows) buffer EventRows { FrameEventRow event_rows[]; };
#endif

// The row's place in the spawn order: the host keeps the places a permutation of the rows; a
// place outside them (a corrupted order) is clamped, never written past the counts.
uint spawn_place(uint row) { return min(spawn_places[row], params.row_count - 1u); }

// take_rate_spawns: `precise` keeps the compiler from fusing rate * dt into the add, which the
// CPU (-ffp-contract=off) never does.
uint take_rate_spawns(inout float accumulator, float rate, float dt) {
  if (!(rate > 0.0f) || !(dt > 0.0f)) return 0u;
  precise float product = rate * dt;
  precise float sum = accumulator + product;
  precise float whole = floor(sum);
  precise float rest = sum - whole;
  accumulator = rest;
  return whole >= 4294967295.0f ? 0xFFFFFFFFu : uint(whole);
}

// Whether the camera may see the row's emitter (culling, docs/design/runtime_frame.md): its box as
// the previous frame published it, tested against the frustum's planes at the box's corner
// farthest along each plane's normal. Unknown bounds, and bounds measured for another generation
// (the emitter's first frame), are seen; so is an empty box whose emitter stands at a constant
// pose inside the view, or at a transform (whose pose the tick does not read).
bool box_in_view(vec3 lo, vec3 hi) {
  for (uint i = 0u; i < 6u; ++i) {
    vec4 plane = params.cull_planes[i];
    vec3 far_corner = vec3(plane.x >= 0.0f ? hi.x : lo.x, plane.y >= 0.0f ? hi.y : lo.y, plane.z >= 0.0f ? hi.z : lo.z);
    if (dot(plane.xyz, far_corner) + plane.w < 0.0f) return false;
  }
  return true;
}

bool emitter_in_view(uint row, uint generation) {
  FrameEmitterBounds b = bounds[row];
  if (b.generation != generation) return true;
  vec3 lo = b.bounds_min.xyz, hi = b.bounds_max.xyz;
  if (any(isinf(lo)) && lo.x < 0.0f) return true;  // unknown: -inf .. +inf
  if (lo.x > hi.x) {  // empty: the emitter's own place decides
    if (emitters[row].transform_row != kFrameNoTransform) return true;
    return box_in_view(emitters[row].position.xyz, emitters[row].position.xyz);
  }
  return box_in_view(lo, hi);
}

uint add_saturated(uint a, uint b) {
  uint sum = a + b;
  return sum < a ? 0xFFFFFFFFu : sum;
}

// The firing time of cycle k: `precise` keeps time + k * interval unfused, as on the CPU.
float firing_time(FrameBurst b, uint k) {
  precise float offset = float(k) * b.interval;
  precise float t = b.time + offset;
  return t;
}

// src/sim/emission.cpp's cycles_fired_before: the first cycle in [0, last) whose firing time
// reaches `age` (firing times never decrease with k), by bisection: at most 32 steps for any
// interval, so no burst can hold a tick thread (the device) for long.
uint cycles_fired_before(FrameBurst b, uint last, float age) {
  uint lo = 0u, hi = last;
  while (lo < hi) {
    uint mid = lo + (hi - lo) / 2u;
    if (firing_time(b, mid) >= age) hi = mid;
    else lo = mid + 1u;
  }
  return lo;
}

uint multiply_saturated(uint a, uint b) {
  uint hi, lo;
  umulExtended(a, b, hi, lo);
  return hi != 0u ? 0xFFFFFFFFu : lo;
}

// sim::bursts_due (src/sim/emission.cpp) for one row: the particles of the bursts whose firing
// times time + k * interval (k < cycles, any k a u32 counts when cycles == 0) fall in
// [age_before, age_after), saturated to a u32 (the CPU sums in u64; the budget clamps either
// way). The same f32 firing times and the same bisection as the CPU's, so the same cycles fire.
uint take_bursts(uint row, float age_before, float age_after) {
  uint total = 0u;
  for (uint i = 0u; i < kFrameMaxBursts; ++i) {
    FrameBurst b = bursts[row * kFrameMaxBursts + i];
    if (b.count == 0u) continue;
    if (!(b.interval > 0.0f)) {
      // All cycles at once (cycles == 0 with no interval counts as one).
      if (b.time >= age_before && b.time < age_after)
        total = add_saturated(total, multiply_saturated(b.count, b.cycles == 0u ? 1u : b.cycles));
      continue;
    }
    if (!(age_after > age_before)) continue;
    uint last = b.cycles == 0u ? 0xFFFFFFFFu : b.cycles;
    uint fired = cycles_fired_before(b, last, age_after) - cycles_fired_before(b, last, age_before);
    total = add_saturated(total, multiply_saturated(b.count, fired));
  }
  return total;
}

// Debits `want` from the frame's spawn budget for every invocation of the workgroup at once:
// one compare-and-swap loop per workgroup on the workgroup's total, then the granted part is
// handed out in subgroup order and, inside a subgroup, in lane order. One loop per row made every
// row contend for one word, and one per subgroup still left 3,125 loops in a row on one word for
// 100,000 rows (the timings are in docs/PERFORMANCE.md, "The tick, one budget debit per workgroup").
// Every invocation of the workgroup must call it (barriers).
uint take_from_budget(uint want) {
  // Rows ask for at most 2^25 (more than any pool holds): a subgroup of up to 64 lanes sums to
  // at most 2^31. Totals beyond the workgroup are saturated at 2^30 (no budget is that large).
  const uint kSaturate = 1u << 30;
  uint asked = min(want, 1u << 25);
  uint before = subgroupExclusiveAdd(asked);
  uint total = subgroupAdd(asked);
  if (subgroupElect()) s_subgroup_asked[gl_SubgroupID] = total;
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    uint sum = 0u;
    for (uint i = 0u; i < gl_NumSubgroups; ++i) sum = min(sum + s_subgroup_asked[i], kSaturate);
    uint granted = 0u;
    if (sum > 0u) {
      uint old = counters.budget;
      for (;;) {
        granted = min(sum, old);
        if (granted == 0u) break;
        uint seen = atomicCompSwap(counters.budget, old, old - granted);
        if (seen == old) break;
        old = seen;
      }
    }
    s_workgroup_granted = granted;
  }
  barrier();
  uint subgroup_first = 0u;  // what the subgroups before this one take first
  for (uint i = 0u; i < gl_SubgroupID; ++i) subgroup_first = min(subgroup_first + s_subgroup_asked[i], kSaturate);
  uint granted = s_workgroup_granted;
  uint subgroup_granted = granted > subgroup_first ? min(total, granted - subgroup_first) : 0u;
  return subgroup_granted > before ? min(asked, subgroup_granted - before) : 0u;
}

void main() {
#ifdef FRAME_WARMUP
  uint entry = gl_GlobalInvocationID.x;
  bool queued = entry < push.entry_count;
  uint row = queued ? queue[entry].row : 0xFFFFFFFFu;
  bool in_table = queued && row < params.row_count;
  bool takes_part = in_table && push.tick >= queue[entry].first_tick &&
                    emitters[row].generation == queue[entry].generation;
#else
  uint row = gl_GlobalInvocationID.x;
  // Every invocation reaches the subgroup budget step; rows past the table and free rows ask 0.
  bool in_table = row < params.row_count;
#endif
  // The tick reads two words of the record, not the whole row.
  uint generation = 0u;
  float rate = 0.0f;
  FrameEmitterState s;
  bool live = false;
  uint want = 0u;
  uint children = 0u;  // the events' children asked for this row this frame
  if (in_table) {
    generation = emitters[row].generation;
    rate = emitters[row].spawn_rate;
    s = states[row];
    live = generation != 0u;
#ifdef FRAME_WARMUP
    live = live && takes_part;
#endif
  }
#ifdef FRAME_WARMUP
  const bool frozen = false, stopped = false;
#else
  // The runtime controls (shared/emitter_record.h): a paused or inactive emitter's clock stands
  // and it spawns nothing (pending waits); a stopped one's clock runs but only burst() spawns, as
  // a manual one's (its upload count).
  uint control = in_table ? emitters[row].flags : 0u;
  bool frozen = (control & (kEmitterFlagPaused | kEmitterFlagInactive)) != 0u;
  bool stopped = (control & (kEmitterFlagStopped | kEmitterFlagManual)) != 0u;
#endif
  if (live) {
    if (s.generation != generation) {
      // Pending survives the restart: a burst queued on the emitter's first frame is its own.
      s = FrameEmitterState(generation, 0.0f, 0.0f, s.pending, 0u, 0u, 0xFFFFFFFFu, 0u, 0.0f, 0u, s.reserved, 0u);
#ifdef FRAME_WARMUP
      // warmup_start_accumulator: the top 24 bits of the hash, as a fraction.
      s.accumulator = float(vm_hash3(emitters[row].seed, kFrameWarmupAccumulatorSalt, kFrameRngSalt) >> 8u) *
                      (1.0f / 16777216.0f);
#endif
    }
  }
  if (live && !frozen) {
    s.tick += 1u;
    float age_before = s.age;
    precise float age = s.age + params.dt;
    s.age = age;
#ifdef FRAME_WARMUP
    bool culls = false;
#else
    bool culls = params.cull_view != 0u && (emitters[row].flags & kEmitterFlagCull) != 0u;
#endif
    s.culled = culls && !emitter_in_view(row, generation) ? 1u : 0u;
    if (s.culled != 0u) {
      // Out of view: nothing spawns, the clock runs on, the sleep grows, queued bursts wait.
      precise float slept = s.asleep + params.dt;
      s.asleep = slept;
    } else {
      // Seen again: at most max_catchup_seconds of the rate missed while asleep (sim::wake_spawns).
      if (s.asleep > 0.0f) {
        precise float owed = rate > 0.0f ? rate * min(s.asleep, emitters[row].cull_catchup_seconds) : 0.0f;
        precise float topped = s.accumulator + owed;
        s.accumulator = topped;
        s.asleep = 0.0f;
      }
      uint whole = stopped ? 0u : take_rate_spawns(s.accumulator, rate, params.dt);
      uint declared = stopped ? 0u : take_bursts(row, age_before, age);
      // The reference's request: rate spawns + declared bursts; then the host's bursts (saturated).
#ifdef FRAME_WARMUP
      want = add_saturated(whole, declared);
#else
      want = add_saturated(add_saturated(whole, declared), s.pending);
      s.pending = 0u;
#endif
    }
  }
#ifndef FRAME_WARMUP
  uint culled_children = 0u;  // a culled row spawns nothing: its children are dropped and counted
  if (live && row < uint(event_rows.length())) {
    children = event_rows[row].children;
    if (s.culled != 0u) {
      culled_children = children;
      children = 0u;
    }
    want = add_saturated(children, want);
  }
#endif
  uint take = take_from_budget(want);
  if (!in_table) return;
#ifndef FRAME_WARMUP
  // A replace-oldest burst's spawns (the reset's RESERVED): the host made room for them before
  // the frame and kept their slots out of the budget, so they spawn whole whatever the budget
  // left, after the row's event children in its batch (docs/design/drivers.md, "Pool-full
  // policies").
  uint reserved = live ? s.reserved : 0u;
  s.reserved = 0u;
#else
  const uint reserved = 0u;
#endif
#ifdef FRAME_WARMUP
  if (!live) {
    spawn_counts[spawn_place(row)] = 0u;  // waiting for its first tick: its state stays as it is
    return;
  }
#endif
  if (!live) {
    // A free row: forget everything, including commands aimed at it.
    states[row] = FrameEmitterState(0u, 0.0f, 0.0f, 0u, 0u, 0u, 0u, 0u, 0.0f, 0u, 0u, 0u);
    spawn_counts[spawn_place(row)] = 0u;
    return;
  }
  if (want > take) atomicAdd(counters.dropped, want - take);
#ifndef FRAME_WARMUP
  if (row < uint(event_rows.length()) && (children | culled_children) != 0u) {
    // Children first: the grant covers them before the rate and bursts.
    uint granted = min(children, take);
    event_rows[row].granted = granted;
    event_rows[row].spawns_dropped = children - granted + culled_children;
    if (culled_children != 0u) atomicAdd(counters.dropped, culled_children);
  }
#endif
  s.spawn_first = s.spawned;
  s.spawn_count = take + reserved;
  s.spawned += take + reserved;
  states[row] = s;
  spawn_counts[spawn_place(row)] = take + reserved;
}
