# Sourced by cli_test.sh (its check, $mote, $src, $work, failures): every verb's --help, --version
# and usage errors; cooked effects through compile, inspect and simulate; presets; the GIF that
# render always writes; preview; --json on the reporting verbs.
bad() { echo "FAIL $1"; failures=$((failures + 1)); }
json_ok() { python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2> /dev/null; }
json_lines_ok() { python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$1" 2> /dev/null; }

verbs="info selftest asm disasm verify run-program compile inspect presets simulate render preview bench bake edit"
for verb in $verbs; do
  check "$verb --help" 0 "$mote" "$verb" --help
  grep -q "Usage:" "$work/out" || bad "$verb --help prints no usage"
  check "$verb unknown option" 2 "$mote" "$verb" --no-such-option
done
for verb in asm disasm verify run-program compile inspect simulate render preview bake; do
  check "$verb without its file" 2 "$mote" "$verb"
done
check "--version" 0 "$mote" --version
version=$(sed -n 's/^#define MOTE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$src/include/mote/version.hpp" | paste -sd.)
grep -qx "mote $version" "$work/out" || bad "--version does not print 'mote $version'"
check "no verb" 2 "$mote"
MOTE_DEVICE=no-such-device check "info without a device" 3 "$mote" info
grep -q "^mote info: " "$work/err" || bad "info without a device: not 'mote info: ...'"

# Cooked effects: every preset cooks, inspects and simulates to what its document simulates to.
for f in "$src"/effects/*.json; do
  name=$(basename "$f" .json)
  check "compile $name to a cooked effect" 0 "$mote" compile "$f" -o "$work/$name.mfe"
  check "inspect $name.mfe" 0 "$mote" inspect "$work/$name.mfe" --json
  json_ok "$work/out" || bad "inspect $name.mfe --json is not JSON"
  grep -q '"kind": "cooked effect"' "$work/out" || bad "inspect $name.mfe: not described as a cooked effect"
done
# The cooked file carries its kernels' SPIR-V unless --no-kernels (docs/design/cooked.md, KERN).
check "inspect fire.mfe" 0 "$mote" inspect "$work/fire.mfe" --json
grep -q '"stage": "simulate"' "$work/out" || bad "inspect fire.mfe: no simulate kernel cooked"
grep -q '"stage": "emit"' "$work/out" || bad "inspect fire.mfe: no emit kernel cooked"
check "compile fire --no-kernels" 0 "$mote" compile "$src/effects/fire.json" -o "$work/fire_bare.mfe" --no-kernels
check "inspect fire_bare.mfe" 0 "$mote" inspect "$work/fire_bare.mfe" --json
grep -q '"kernels": \[\]' "$work/out" || bad "inspect fire_bare.mfe: kernels cooked despite --no-kernels"
"$mote" simulate "$src/effects/explosion.json" --frames 20 --json > "$work/sim_doc.json" 2> /dev/null
"$mote" simulate "$work/explosion.mfe" --frames 20 --json > "$work/sim_cooked.json" 2> /dev/null
if [ ! -s "$work/sim_doc.json" ] || ! cmp -s "$work/sim_doc.json" "$work/sim_cooked.json"; then
  bad "simulate: the cooked explosion differs from its document"
fi
check "inspect an effect document" 0 "$mote" inspect "$src/effects/fire.json"
grep -q "effect document" "$work/out" || bad "inspect fire.json: not described as an effect document"
grep -q "modules update .*integrate" "$work/out" || bad "inspect fire.json: its module stacks are not listed"
check "inspect a scene" 0 "$mote" inspect "$src/scenes/bonfire.json" --asset-root "$src" --json
grep -q '"kind": "scene file"' "$work/out" || bad "inspect bonfire.json: not described as a scene"
check "inspect a program" 0 "$mote" inspect "$work/integrate_gravity.mfx"
head -c 100 "$work/fire.mfe" > "$work/cut.mfe"
check "inspect a truncated cooked effect" 1 "$mote" inspect "$work/cut.mfe"
grep -q "^mote inspect: $work/cut.mfe: offset 0x" "$work/err" || bad "inspect cut.mfe: not 'mote inspect: FILE: offset: what'"
check "inspect garbage" 1 "$mote" inspect "$work/garbage.mfx"

# Presets: one line each, and the JSON form names every file in effects/.
check "presets" 0 "$mote" presets --dir "$src/effects"
[ "$(wc -l < "$work/out")" -eq "$(ls "$src"/effects/*.json | wc -l)" ] || bad "presets: not one line per preset"
check "presets --json" 0 "$mote" presets --dir "$src/effects" --json
json_ok "$work/out" || bad "presets --json is not JSON"
check "presets in a missing folder" 1 "$mote" presets --dir "$work/no-such-folder"

# Render always writes the GIF (no ffmpeg needed): GIF89a at the asked size.
check "render fire --json" 0 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$work/render_gif" --frames 3 --size 64x36 --no-video --json
json_lines_ok "$work/out" || bad "render --json: a line that is not JSON"
[ "$(wc -l < "$work/out")" -eq 4 ] || bad "render --json: not 3 frame objects and a summary"
gif="$work/render_gif/frames.gif"
if [ -s "$gif" ] && [ "$(head -c 6 "$gif")" = "GIF89a" ]; then
  size=$(od -An -tu2 -j6 -N4 "$gif" | tr -s ' ')
  [ "$size" = " 64 36" ] || bad "frames.gif is $size, not 64x36"
else
  bad "render wrote no frames.gif"
fi
# compile --expand prints the plain document a module document stands for; it compiles the same.
check "compile --expand" 0 "$mote" compile "$src/effects/fire.json" --expand
json_ok "$work/out" || bad "compile --expand: not JSON"
grep -q '"modules"' "$work/out" && bad "compile --expand: the expansion still has modules"
cp "$work/out" "$work/fire_expanded.json"
"$mote" compile "$src/effects/fire.json" -o "$work/fire_modules.mfx" > /dev/null 2>&1
"$mote" compile "$work/fire_expanded.json" -o "$work/fire_expanded.mfx" > /dev/null 2>&1
cmp -s "$work/fire_modules.mfx" "$work/fire_expanded.mfx" || bad "compile: the expansion compiles to another program"

# Preview: one effect on the default stage, no scene file; the same outputs as render.
check "preview fire" 0 "$mote" preview "$src/effects/fire.json" --out "$work/preview" --frames 3 --size 64x36 --no-video
for f in frame_0000.png frame_0002.png contact_sheet.png frames.gif; do
  [ -s "$work/preview/$f" ] || bad "preview wrote no $f"
done
[ "$(od -An -tu2 -j6 -N4 "$work/preview/frames.gif" 2> /dev/null | tr -s ' ')" = " 64 36" ] || bad "preview: frames.gif is not 64x36"
check "preview --json" 0 "$mote" preview "$src/effects/explosion.json" --out "$work/preview_json" --frames 2 --size 64x36 --no-video --json
json_lines_ok "$work/out" || bad "preview --json: a line that is not JSON"
printf '{"name": "x", "modules": {"initialize": [{"module": "no_such_module"}]}}' > "$work/bad_module.json"
check "preview an effect with an unknown module" 1 "$mote" preview "$work/bad_module.json" --out "$work/preview_bad"
grep -q "^mote preview: $work/bad_module.json: /modules/initialize/0/module: " "$work/err" || bad "preview: the error does not point at the module"
check "preview --seconds 0" 2 "$mote" preview "$src/effects/fire.json" --seconds 0
# Bake: the committed flipbooks are exactly what the tool bakes (reproducible), and are PNGs.
check "bake all" 0 "$mote" bake all --out "$work/baked"
for t in smoke flame spark; do
  cmp -s "$work/baked/${t}_flipbook.png" "$src/effects/textures/${t}_flipbook.png" ||
    bad "bake: effects/textures/${t}_flipbook.png is not what mote bake $t writes (re-bake: mote bake all --out effects/textures)"
done
check "bake one, smaller" 0 "$mote" bake smoke --out "$work/smoke_small.png" --frame-size 16 --columns 2 --rows 2
[ "$(od -An -tu1 -j16 -N8 "$work/smoke_small.png" | tr -s ' ')" = " 0 0 0 32 0 0 0 32" ] || bad "bake --frame-size 16 2x2: not a 32x32 PNG"
check "bake an unknown texture" 2 "$mote" bake fog
check "render --video bogus" 2 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$work/render_bogus" --video avi

# The benchmarks at lavapipe's size: exit 0, one JSON object a line, one per figure, each with
# its ratio to the same run's roofline; the roofline first.
check "bench --small --json" 0 "$mote" bench --small --json
json_lines_ok "$work/out" || bad "bench --json: a line that is not JSON"
python3 - "$work/out" <<'PY' || bad "bench --json: the figures are not what mote bench promises"
import json, sys
figures = [json.loads(line) for line in open(sys.argv[1])]
names = [f["figure"] for f in figures]
assert names[0] == "roofline.copy" and figures[0]["of_roofline"] == 1.0, names
for prefix in ("vm.fast", "vm.wide", "vm.compiled", "frame.steady", "frame.simulate_compiled",
               "frame.simulate_interpreted", "draw."):
    assert any(n.startswith(prefix) for n in names), (prefix, names)
for f in figures:
    assert f["ms"] > 0 and f["gbps"] > 0 and f["of_roofline"] > 0, f
PY

# info and selftest report as JSON too.
check "info --json" 0 "$mote" info --json
json_ok "$work/out" || bad "info --json is not JSON"
check "selftest --json" 0 "$mote" selftest --elements 4096 --json
json_ok "$work/out" || bad "selftest --json is not JSON"
grep -q '"ok":true' "$work/out" || bad "selftest --json does not say ok"

# A cooked effect's relative texture path is rewritten to resolve from the output's folder.
mkdir -p "$work/doc/tex" "$work/cooked/deep"
# (the document's own "render" keys are set over its modules')
sed 's|"modules": {|"render": {"texture": "tex/puff.png"}, "modules": {|' "$src/effects/smoke.json" > "$work/doc/smoke.json"
check "compile with a relative texture" 0 "$mote" compile "$work/doc/smoke.json" -o "$work/cooked/deep/smoke.mfe"
check "inspect the relocated texture" 0 "$mote" inspect "$work/cooked/deep/smoke.mfe" --json
grep -q '"texture": "../../doc/tex/puff.png"' "$work/out" || bad "the cooked texture path was not relocated: $(grep texture "$work/out")"

# ffmpeg is run from an argument vector, never a shell: a stand-in ffmpeg on the PATH records the
# arguments it gets (one a line) and writes its output file; an output folder whose name a shell
# would split or expand reaches it whole.
mkdir -p "$work/fakebin"
cat > "$work/fakebin/ffmpeg" <<'SH'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done > "$(dirname "$(eval echo \${$#})")/ffmpeg_args_$(basename "$(eval echo \${$#})")"
printf 'video' > "$(eval echo \${$#})"
SH
chmod +x "$work/fakebin/ffmpeg"
odd="$work/out dir \$HOME 'q'"
PATH="$work/fakebin:$PATH" check "render with ffmpeg (a stand-in)" 0 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$odd" --frames 2 --size 64x36 --video mp4 --video webm
for kind in mp4 webm; do
  [ -s "$odd/frames.$kind" ] || bad "render did not have ffmpeg write frames.$kind"
  grep -qxF "$odd/frame_%04d.png" "$odd/ffmpeg_args_frames.$kind" 2> /dev/null || bad "ffmpeg ($kind) did not get the frames' pattern as one argument"
done
grep -qx "libx264" "$odd/ffmpeg_args_frames.mp4" 2> /dev/null || bad "the mp4 is not asked for as H.264"
grep -qx "libvpx-vp9" "$odd/ffmpeg_args_frames.webm" 2> /dev/null || bad "the webm is not asked for as VP9"
[ -s "$odd/frames.gif" ] || bad "render with ffmpeg wrote no frames.gif"
