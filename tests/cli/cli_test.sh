#!/usr/bin/env bash
# End-to-end checks of the `mote` CLI: exit statuses (0 done, 1 input refused, 2 usage, 3 no
# device; never a signal; docs/design/cli.md), the one error style `mote VERB: FILE: where: what`,
# round trips through asm/disasm and cooked effects, the same records from every executor, and
# the outputs of render (PNG frames, contact sheet, GIF) and of the reporting verbs' --json.
#   cli_test.sh MOTE_BINARY SOURCE_DIR
set -u
mote="$1"
src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
check() {  # check NAME EXPECTED_STATUS COMMAND...
  local name="$1" expected="$2"
  shift 2
  "$@" > "$work/out" 2> "$work/err"
  local status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "FAIL $name: exit $status, expected $expected"; sed 's/^/  stderr: /' "$work/err" | head -5
    failures=$((failures + 1))
  elif grep -q '^\[vulkan' "$work/err"; then
    echo "FAIL $name: Vulkan validation message"; grep '^\[vulkan' "$work/err" | head -3
    failures=$((failures + 1))
  else
    passes=$((passes + 1))
  fi
}
# Every GPU command runs with the validation layer; any message fails the check.
export MOTE_VALIDATION=1

check "info" 0 "$mote" info
check "selftest" 0 "$mote" selftest --elements 4096
for f in "$src"/programs/*.masm; do
  name=$(basename "$f" .masm)
  check "asm $name" 0 "$mote" asm "$f" -o "$work/$name.mfx"
  check "verify $name" 0 "$mote" verify "$work/$name.mfx"
  "$mote" disasm "$work/$name.mfx" > "$work/$name.dis.masm"
  check "re-asm $name" 0 "$mote" asm "$work/$name.dis.masm" -o "$work/$name.2.mfx"
  if ! cmp -s "$work/$name.mfx" "$work/$name.2.mfx"; then
    echo "FAIL round trip $name: disassembly does not reassemble to the same bytes"; failures=$((failures + 1))
  fi
  for section in init update eval; do
    "$mote" run-program "$work/$name.mfx" --count 37 --section $section --executor reference > "$work/ref.json" 2>/dev/null
    "$mote" run-program "$work/$name.mfx" --count 37 --section $section --executor batch > "$work/batch.json" 2>/dev/null
    if ! cmp -s "$work/ref.json" "$work/batch.json"; then
      echo "FAIL run-program $name $section: batch differs from reference"; failures=$((failures + 1))
    fi
    check "run-program gpu $name $section" 0 "$mote" run-program "$work/$name.mfx" --count 37 --section $section --executor gpu
    check "run-program gpu-compiled $name $section" 0 "$mote" run-program "$work/$name.mfx" --count 37 --section $section --executor gpu-compiled
  done
done

# Effect documents: every preset compiles and simulates; the reference and batch previews agree.
for f in "$src"/effects/*.json; do
  name=$(basename "$f" .json)
  check "compile $name" 0 "$mote" compile "$f" -o "$work/$name.effect.mfx"
  check "verify compiled $name" 0 "$mote" verify "$work/$name.effect.mfx"
done
"$mote" simulate "$src/effects/fire.json" --frames 30 --json > "$work/sim_ref.json" 2>/dev/null
"$mote" simulate "$src/effects/fire.json" --frames 30 --json --executor batch > "$work/sim_batch.json" 2>/dev/null
if [ ! -s "$work/sim_ref.json" ] || ! cmp -s "$work/sim_ref.json" "$work/sim_batch.json"; then
  echo "FAIL simulate: batch preview differs from reference (or is empty)"; failures=$((failures + 1))
fi
printf '{"name": "x", "particle_fields": [{"name": "p", "width": 9}]}' > "$work/bad_effect.json"
check "compile bad document" 1 "$mote" compile "$work/bad_effect.json" -o "$work/bad_effect.mfx"
grep -q "^mote compile: $work/bad_effect.json: /: " "$work/err" || { echo "FAIL compile bad document: not 'mote compile: FILE: /pointer: what'"; cat "$work/err"; failures=$((failures + 1)); }

# Bad input: a clear error and exit 1, never a crash.
head -c 40 "$work/integrate_gravity.mfx" > "$work/truncated.mfx"
check "verify truncated" 1 "$mote" verify "$work/truncated.mfx"
grep -q "^mote verify: $work/truncated.mfx: offset 0x" "$work/err" || { echo "FAIL verify truncated: not 'mote verify: FILE: offset: what'"; cat "$work/err"; failures=$((failures + 1)); }
printf 'garbage' > "$work/garbage.mfx"
check "disasm garbage" 1 "$mote" disasm "$work/garbage.mfx"
printf '.registers 4\n.update\n  FROB r0.x, 1\n' > "$work/bad.masm"
check "asm unknown mnemonic" 1 "$mote" asm "$work/bad.masm" -o "$work/bad.mfx"
grep -q "line 3" "$work/err" || { echo "FAIL asm unknown mnemonic: error does not name line 3"; failures=$((failures + 1)); }
check "verify missing file" 1 "$mote" verify "$work/does-not-exist.mfx"
check "run-program unknown executor" 2 "$mote" run-program "$work/integrate_gravity.mfx" --executor quantum
check "usage error" 2 "$mote" no-such-command

# The GPU frame: `simulate --gpu` reports every frame; `--compare` finds no count difference
# against the reference (and exits 1 if it did).
check "simulate --gpu fire" 0 "$mote" simulate "$src/effects/fire.json" --frames 60 --gpu
[ "$(grep -c '^frame ' "$work/out")" -eq 60 ] || { echo "FAIL simulate --gpu fire: not 60 frame lines"; failures=$((failures + 1)); }
check "simulate --compare fire" 0 "$mote" simulate "$src/effects/fire.json" --frames 60 --compare
grep -q '^count differences: 0 frames of 60$' "$work/out" || { echo "FAIL simulate --compare fire: count differences reported"; grep -m3 MISMATCH "$work/out"; failures=$((failures + 1)); }
# Declared bursts are the GPU tick's alone: explosion's one burst of 300 spawns 300 on frame 0
# (a host that queued it as well would ask for 600: 512 spawned, 88 dropped).
check "simulate --gpu explosion" 0 "$mote" simulate "$src/effects/explosion.json" --frames 10 --gpu
grep -q '^frame 0 alive 300 spawned 300 killed 0 dropped 0' "$work/out" || { echo "FAIL simulate --gpu explosion: the declared burst did not spawn exactly 300"; head -1 "$work/out"; failures=$((failures + 1)); }
for effect in explosion debris; do
  check "simulate --compare $effect" 0 "$mote" simulate "$src/effects/$effect.json" --frames 40 --compare
  grep -q '^count differences: 0 frames of 40$' "$work/out" || { echo "FAIL simulate --compare $effect: count differences reported"; grep -m3 MISMATCH "$work/out"; failures=$((failures + 1)); }
done

# The scene renderer: frames, a contact sheet and one stats line per frame on both draw paths;
# a bad --size is refused with exit 1 before anything is rendered.
for path in raster compute; do
  out_dir="$work/render_$path"
  check "render fire --path $path" 0 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$out_dir" --frames 2 --size 64x36 --path $path --no-video
  for f in frame_0000.png frame_0001.png contact_sheet.png; do
    [ -s "$out_dir/$f" ] || { echo "FAIL render fire --path $path: no $f"; failures=$((failures + 1)); }
  done
  [ "$(grep -c '^frame ' "$work/out")" -eq 2 ] || { echo "FAIL render fire --path $path: not 2 frame lines"; failures=$((failures + 1)); }
done
for size in 64x 8x8 64x36x2 abc; do
  check "render bad --size $size" 2 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$work/render_bad" --frames 1 --size "$size" --no-video
  grep -q -- "--size" "$work/err" || { echo "FAIL render bad --size $size: the error does not name --size"; failures=$((failures + 1)); }
done
[ ! -e "$work/render_bad" ] || { echo "FAIL render bad --size: wrote output anyway"; failures=$((failures + 1)); }
# Scene problems found at load, before any frame: an override naming no field of the effect, and
# a warm-up that would take more than a million simulation steps.
# Scenes name their files relative to themselves, inside an asset root: these, written in $work,
# reach the source tree's effect through a relative path under the root "/".
fire_from_work=$(realpath --relative-to="$work" "$src/effects/fire.json")
cat > "$work/bad_field_scene.json" <<EOF
{"version": 1, "emitters": [{"effect": "$fire_from_work", "start_time": 0.5, "fields": {"no_such_field": 1}}],
 "output": {"width": 32, "height": 32, "frames": 30}}
EOF
check "render unknown field override" 1 "$mote" render "$work/bad_field_scene.json" --asset-root / --out "$work/render_bad_field" --no-video
grep -q "/emitters/0/fields/no_such_field" "$work/err" || { echo "FAIL render unknown field override: no pointer"; failures=$((failures + 1)); }
[ ! -e "$work/render_bad_field/frame_0000.png" ] || { echo "FAIL render unknown field override: rendered frames first"; failures=$((failures + 1)); }
# Event bindings (docs/design/scene.md, "events"): the fireworks scene's rockets burst into sparks
# (far more alive than the 12 rockets could be), and an output the source's effect does not
# declare fails the render at its pointer before any frame.
check "render fireworks" 0 "$mote" render "$src/scenes/fireworks.json" --asset-root "$src" --out "$work/render_fireworks" --frames 2 --size 64x36 --no-video
fireworks_alive=$(grep '^frame 1 ' "$work/out" | sed -n 's/.* alive=\([0-9]*\).*/\1/p')
[ "${fireworks_alive:-0}" -gt 100 ] || { echo "FAIL render fireworks: ${fireworks_alive:-no} alive on frame 1, no sparks"; failures=$((failures + 1)); }
rocket_from_work=$(realpath --relative-to="$work" "$src/effects/fireworks_rocket.json")
spark_from_work=$(realpath --relative-to="$work" "$src/effects/fireworks_spark.json")
cat > "$work/bad_event_scene.json" <<EOF
{"version": 1, "emitters": [{"name": "r", "effect": "$rocket_from_work"}, {"name": "s", "effect": "$spark_from_work"}],
 "events": [{"source": "r", "output": "boom", "target": "s"}], "output": {"width": 32, "height": 32, "frames": 2}}
EOF
check "render undeclared event output" 1 "$mote" render "$work/bad_event_scene.json" --asset-root / --out "$work/render_bad_event" --no-video
grep -q "/events/0/output" "$work/err" || { echo "FAIL render undeclared event output: no pointer"; failures=$((failures + 1)); }
[ ! -e "$work/render_bad_event/frame_0000.png" ] || { echo "FAIL render undeclared event output: rendered frames first"; failures=$((failures + 1)); }
cat > "$work/long_warmup_scene.json" <<EOF
{"version": 1, "emitters": [{"effect": "$fire_from_work"}],
 "output": {"width": 32, "height": 32, "frames": 1, "dt": 0.000001, "warmup_seconds": 600}}
EOF
check "render endless warm-up" 1 "$mote" render "$work/long_warmup_scene.json" --asset-root / --out "$work/render_long" --no-video
grep -q "/output/warmup_seconds" "$work/err" || { echo "FAIL render endless warm-up: no pointer"; failures=$((failures + 1)); }
# With ffmpeg on the PATH (optional: not a dependency), the frames also become an MP4 beside the GIF.
if command -v ffmpeg > /dev/null 2>&1; then
  check "render fire with video" 0 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$work/render_video" --frames 3 --size 64x36
  for f in frames.gif frames.mp4; do
    [ -s "$work/render_video/$f" ] || { echo "FAIL render fire with video: no $f"; failures=$((failures + 1)); }
  done
fi

source "$src/tests/cli/cli_verbs_test.sh"

echo "cli: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
