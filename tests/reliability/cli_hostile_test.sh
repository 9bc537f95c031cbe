#!/usr/bin/env bash
# The hostile CLI runs of docs/design/reliability.md (findings 1, 2, 6, 8 and 11), each as it was
# found: every one must end with a clear error (exit 1, or 2 for a usage error) or succeed, never
# a signal, a hang, gigabytes of memory or a command run by a shell.
#   cli_hostile_test.sh MOTE_BINARY SOURCE_DIR
set -u
mote=$(realpath "$1")
src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
# check NAME EXPECTED_STATUS COMMAND...: runs under a time limit; 124 = it hung.
check() {
  local name="$1" expected="$2"
  shift 2
  timeout 120 "$@" > "$work/out" 2> "$work/err"
  local status=$?
  if [ "$status" -ne "$expected" ]; then
    fail "$name: exit $status, expected $expected"; head -c 400 "$work/err" | sed 's/^/  stderr: /'
  elif grep -q '^\[vulkan' "$work/err"; then
    fail "$name: Vulkan validation message"
  else
    passes=$((passes + 1))
  fi
}
expect_err() {  # expect_err NAME TEXT: the last command's stderr contains TEXT
  grep -q -- "$2" "$work/err" || { fail "$1: stderr lacks '$2'"; head -c 300 "$work/err" | sed 's/^/  stderr: /'; }
}
# peak_rss_mib COMMAND...: runs it with stdout to /dev/null and prints its peak resident MiB.
peak_rss_mib() {
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@"
}
export MOTE_VALIDATION=1

# Finding 1: run-program used a program before verifying it.
printf '.registers 4\n.particle a 4294967295\n.update\n' > "$work/wrap.masm"
printf '{"a": 1}' > "$work/a.json"
check "run-program width 2^32-1" 1 "$mote" run-program "$work/wrap.masm" --fields "$work/a.json"
expect_err "run-program width 2^32-1" "outside 1..4"
printf '.registers 4\n.particle a 1000000000\n.emitter e 2000000000\n.global g 3000000000\n.update\n' > "$work/wide.masm"
for executor in reference batch gpu; do
  check "run-program huge widths ($executor)" 1 "$mote" run-program "$work/wide.masm" --executor $executor -n 1000
  expect_err "run-program huge widths ($executor)" "verify error"
done

# Finding 2: the output was one JSON document in memory (~1.1 KB a particle).
"$mote" asm "$src/programs/integrate_gravity.masm" -o "$work/gravity.mfx" || fail "asm integrate_gravity"
mib=$(peak_rss_mib "$mote" run-program "$work/gravity.mfx" -n 2000000)
[ "${mib:-99999}" -lt 1024 ] || fail "run-program -n 2000000: peak RSS ${mib} MiB (the JSON held in memory)"
"$mote" run-program "$work/gravity.mfx" -n 3 > "$work/three.json" || fail "run-program -n 3"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == 3 and "killed" in d[0]' \
  "$work/three.json" || fail "run-program -n 3: the streamed output is not a JSON array of 3 records"
{ printf '.registers 4\n'; for i in $(seq 0 62); do printf '.particle f%d 4\n' "$i"; done; printf '.particle g 3\n.update\n'; } > "$work/wide_record.masm"
check "run-program 256-word records x 1000000" 1 "$mote" run-program "$work/wide_record.masm" -n 1000000
expect_err "run-program 256-word records x 1000000" "the limit is"

# Finding 8: selftest aborted above 16,776,960 elements, inside its advertised range.
check "selftest --elements 16776961" 0 "$mote" selftest --elements 16776961

# Finding 11: late or missing errors.
check "simulate --rate nan" 2 "$mote" simulate "$work/gravity.mfx" --rate nan --frames 1
check "simulate --rate inf" 2 "$mote" simulate "$work/gravity.mfx" --rate inf --frames 1
check "simulate --prewarm -5" 2 "$mote" simulate "$work/gravity.mfx" --rate 10 --prewarm -5 --frames 1
check "simulate --prewarm nan" 2 "$mote" simulate "$work/gravity.mfx" --rate 10 --prewarm nan --frames 1
check "simulate --rate 10" 0 "$mote" simulate "$work/gravity.mfx" --rate 10 --prewarm 0.5 --frames 2
python3 - "$src/effects/explosion.json" "$work/five_bursts.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.setdefault("emission", {})["bursts"] = [{"time": t, "count": 10} for t in range(5)]  # over the modules'
json.dump(d, open(sys.argv[2], "w"))
PY
check "compile 5 bursts" 1 "$mote" compile "$work/five_bursts.json" -o "$work/five.mfx"
expect_err "compile 5 bursts" "/emission/bursts/4"
check "render --size 4294967312x36" 2 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$work/r_size" --frames 1 --size 4294967312x36 --no-video
expect_err "render --size 4294967312x36" "--size"
check "render --frames 100001" 2 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$work/r_frames" --frames 100001 --no-video
head -c 10485760 /dev/zero | tr '\0' 'k' > "$work/token"
{ printf '{"'; cat "$work/token"; printf '": 1}'; } > "$work/huge_key.json"
check "compile a 10 MB key" 1 "$mote" compile "$work/huge_key.json" -o "$work/k.mfx"
[ "$(wc -c < "$work/err")" -lt 4096 ] || fail "compile a 10 MB key: $(wc -c < "$work/err")-byte error message"
printf '{"na\xff\xfe\x1b[31mme": 1}' > "$work/raw_bytes.json"
check "compile raw bytes" 1 "$mote" compile "$work/raw_bytes.json" -o "$work/r.mfx"
python3 -c 'import sys; t = open(sys.argv[1], "rb").read(); t.decode("utf-8"); assert b"\x1b" not in t' "$work/err" \
  || fail "compile raw bytes: the error message is not printable UTF-8"

# Finding 6: `render --out` was pasted into a shell command for ffmpeg. A stand-in ffmpeg on the
# PATH records the arguments it gets; a folder named with a quote must reach it as one argument
# and run nothing.
mkdir -p "$work/bin"
cat > "$work/bin/ffmpeg" <<SH
#!/bin/sh
[ "\$1" = "-version" ] && exit 0
for a in "\$@"; do printf '%s\n' "\$a"; done >> "$work/ffmpeg_args"
exit 0
SH
chmod +x "$work/bin/ffmpeg"
evil="$work/out'\$(touch $work/pwned)'\"\$(touch $work/pwned2)\""
PATH="$work/bin:$PATH" check "render --out with quotes" 0 "$mote" render "$src/scenes/fire.json" --asset-root "$src" --out "$evil" --frames 1 --size 32x32
[ ! -e "$work/pwned" ] && [ ! -e "$work/pwned2" ] || fail "render --out with quotes: the folder name ran a command"
grep -qxF "$evil/frames.mp4" "$work/ffmpeg_args" 2>/dev/null || fail "render --out with quotes: ffmpeg did not get the folder as one argument"
[ -s "$evil/frame_0000.png" ] || fail "render --out with quotes: no frame in the folder"

# Asset paths: what a scene (and its effects) names resolves relative to the naming file and
# must stay inside the asset root (the current directory unless --asset-root says otherwise).
root="$work/root"
mkdir -p "$root/scenes" "$root/effects"
cp "$src/effects/fire.json" "$root/effects/fire.json"
printf 'secret' > "$work/secret.json"
scene_with() {  # scene_with FILE EMITTERS_JSON [OBJECTS_JSON]
  printf '{"version": 1, "emitters": %s, "objects": %s, "output": {"width": 32, "height": 32, "frames": 1}}' \
    "$2" "${3:-[]}" > "$1"
}
scene_with "$root/scenes/up.json" '[{"effect": "../../secret.json"}]'
check "asset path escaping the root" 1 "$mote" render "$root/scenes/up.json" --asset-root "$root" --out "$work/a1" --no-video
expect_err "asset path escaping the root" "/emitters/0/effect"
expect_err "asset path escaping the root" "outside the asset root"
scene_with "$root/scenes/abs.json" "[{\"effect\": \"$root/effects/fire.json\"}]"
check "absolute asset path" 1 "$mote" render "$root/scenes/abs.json" --asset-root "$root" --out "$work/a2" --no-video
expect_err "absolute asset path" "is absolute"
scene_with "$root/scenes/mesh.json" '[]' '[{"shape": "mesh", "mesh": "../../model.glb"}]'
check "mesh path escaping the root" 1 "$mote" render "$root/scenes/mesh.json" --asset-root "$root" --out "$work/a3" --no-video
expect_err "mesh path escaping the root" "/objects/0/mesh"
ln -s "$work/secret.json" "$root/effects/link.json"
scene_with "$root/scenes/link.json" '[{"effect": "../effects/link.json"}]'
check "symbolic link out of the root" 1 "$mote" render "$root/scenes/link.json" --asset-root "$root" --out "$work/a4" --no-video
expect_err "symbolic link out of the root" "outside the asset root"
python3 - "$root/effects/fire.json" "$root/effects/textured.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.setdefault("render", {})["texture"] = "../../secret.png"
json.dump(d, open(sys.argv[2], "w"))
PY
scene_with "$root/scenes/texture.json" '[{"effect": "../effects/textured.json"}]'
check "effect texture escaping the root" 1 "$mote" render "$root/scenes/texture.json" --asset-root "$root" --out "$work/a5" --no-video
expect_err "effect texture escaping the root" "#/render/texture"
# The default root is the current directory: from the root the scene renders, from elsewhere not.
scene_with "$root/scenes/ok.json" '[{"effect": "../effects/fire.json"}]'
cd "$root"
check "scene inside the current directory" 0 "$mote" render scenes/ok.json --out "$work/a6" --no-video
mkdir -p "$work/elsewhere" && cd "$work/elsewhere"
check "scene outside the current directory" 1 "$mote" render "$root/scenes/ok.json" --out "$work/a7" --no-video
expect_err "scene outside the current directory" "outside the asset root"
cd "$work"

# mote inspect tells a scene from an effect before the strict readers: a file nested a million
# levels deep is refused (the effect compiler's nesting limit, with where), not parsed into a tree.
python3 -c 'import sys; sys.stdout.write("{\"emitters\": " + "[" * 1000000 + "]" * 1000000 + "}")' > "$work/deep.json"
check "inspect a scene nested a million levels" 1 "$mote" inspect "$work/deep.json"
python3 -c 'import sys; sys.stdout.write("[" * 1000000 + "]" * 1000000)' > "$work/deep_array.json"
check "inspect an array nested a million levels" 1 "$mote" inspect "$work/deep_array.json"
expect_err "inspect an array nested a million levels" "nest"

echo "cli hostile: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
