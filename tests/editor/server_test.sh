#!/usr/bin/env bash
# editor.server: `mote edit`'s HTTP API (tools/mote/edit/edit_server.hpp) over a copy of the
# presets: the page and the files are served; paths outside the folder are refused with 403;
# malformed bodies are answered 400 with the reader's pointer; a compile error carries the
# module's pointer; frames come back at the size asked and change with the document, and are
# pushed down a Server-Sent Events stream as they render; and the server answers normally after
# every bad request.
#   server_test.sh MOTE SOURCE_DIR
set -uo pipefail
mote="$(realpath "$1")"; src="$(realpath "$2")"
work="$(mktemp -d)"; trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
passed=0; failed=0
check() {  # check NAME EXPECTED ACTUAL
  if [[ "$2" == "$3" ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: expected '$2', got '$3'"; fi
}
contains() {  # contains NAME NEEDLE HAYSTACK
  if [[ "$3" == *"$2"* ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: '$2' not in '$3'"; fi
}
cp -r "$src/effects" "$work/effects"
echo '{"secret": true}' > "$work/outside.json"
ln -s "$work/outside.json" "$work/effects/link_out.json"
cd "$work/effects"
"$mote" edit fire.json --port 0 > "$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'http://127.0.0.1:' "$work/server.log" && break; sleep 0.1; done
port="$(grep -o '127.0.0.1:[0-9]*' "$work/server.log" | cut -d: -f2)"
[[ -n "$port" ]] || { cat "$work/server.log"; echo "0 passed, 1 failed"; exit 1; }
base="http://127.0.0.1:$port"
status() { curl -s -o "$work/body" -w '%{http_code}' "$@"; }
body() { cat "$work/body"; }

check "page" 200 "$(status "$base/")"
contains "page html" '/page/app.js' "$(body)"
check "bundle" 200 "$(status "$base/page/app.js")"
check "page folder not browsable" 404 "$(status "$base/page/..%2fapp.js")"
check "info" 200 "$(status "$base/api/info")"
contains "info initial" '"initial":"fire.json"' "$(body)"
check "files" 200 "$(status "$base/api/files")"
contains "files list presets" '{"kind":"effect","path":"smoke.json"}' "$(body)"
check "read" 200 "$(status "$base/api/file?path=fire.json")"
contains "read text" '"name\": \"fire\"' "$(body)"

# Paths outside the folder: "..", absolute, through a symbolic link, not .json; each answered
# with a JSON error, and the server still serves.
for path in '../outside.json' '/etc/passwd' 'textures/../../outside.json' 'link_out.json' '%2e%2e/outside.json'; do
  check "refused $path" 403 "$(status "$base/api/file?path=$path")"
  contains "refused $path says why" '"code":"forbidden"' "$(body)"
  check "refused write $path" 403 "$(status -X PUT --data-binary '{}' "$base/api/file?path=$path")"
done
check "another host name refused" 403 "$(status -H 'Host: attacker.example:80' "$base/api/file?path=fire.json")"
check "localhost accepted" 200 "$(status -H "Host: localhost:$port" "$base/api/info")"
check "not json refused" 403 "$(status "$base/api/file?path=textures/flame_flipbook.png")"
check "no path" 400 "$(status "$base/api/file")"
check "missing file" 404 "$(status "$base/api/file?path=nothing_here.json")"
check "outside untouched" '{"secret": true}' "$(cat "$work/outside.json")"
check "still serving after refusals" 200 "$(status "$base/api/info")"

# Malformed bodies: 400 with the reader's pointer; nothing written.
check "malformed compile" 400 "$(status -X POST --data-binary '{"version": 1, "modules":' "$base/api/compile")"
contains "malformed compile pointer" '"where":"/"' "$(body)"
contains "malformed compile byte" 'byte 26' "$(body)"
check "malformed save" 400 "$(status -X PUT --data-binary 'not json' "$base/api/file?path=fire.json")"
check "malformed save wrote nothing" "$(cat "$src/effects/fire.json")" "$(cat fire.json)"
check "malformed frame" 400 "$(status -X POST --data-binary '[1,' "$base/api/frame?path=fire.json")"
check "bad frame time" 400 "$(status -X POST --data-binary @fire.json "$base/api/frame?path=fire.json&t=abc")"
check "bad frame size" 400 "$(status -X POST --data-binary @fire.json "$base/api/frame?path=fire.json&w=8&h=8")"
check "unknown route" 404 "$(status "$base/api/nothing")"
contains "unknown route json" '"code":"not_found"' "$(body)"
check "still serving after malformed bodies" 200 "$(status "$base/api/files")"

# A compile error points at the module's parameter; a fixed document compiles.
broken="$(sed 's/"drag": 0.2/"drag": "oops"/' fire.json)"
check "compile error answered" 200 "$(status -X POST --data-binary "$broken" "$base/api/compile")"
contains "compile error pointer" '"where":"/modules/update/1/drag"' "$(body)"
check "compile ok" 200 "$(status -X POST --data-binary @fire.json "$base/api/compile")"
contains "compile ok says so" '"ok":true' "$(body)"
# What the drawn curve and gradient editors send is checked like any edit: a malformed key list
# is an error on the module's parameter.
for bad in 's/\[0.0, 1.0, 0.95, 0.8\]/[0.0, "x", 0.95, 0.8]/' 's/\[0.25, 1.0, 0.7, 0.25\]/[1.5, 1.0, 0.7, 0.25]/' \
           's/\[0.25, 1.0, 0.7, 0.25\]/[0.25, 1.0]/' 's/\[0.6, 0.9, 0.3, 0.05\]/[0.25, 0.9, 0.3, 0.05]/'; do
  check "bad gradient keys answered ($bad)" 200 "$(status -X POST --data-binary "$(sed "$bad" fire.json)" "$base/api/compile")"
  contains "bad gradient keys on the parameter ($bad)" '"where":"/modules/update/6/gradient"' "$(body)"
done
check "frame of a broken document" 400 "$(status -X POST --data-binary "$broken" "$base/api/frame?path=fire.json")"
contains "frame error pointer" '"where":"/modules/update/1/drag"' "$(body)"

# Frames: raw RGBA at the size asked; another document, another picture.
check "frame" 200 "$(status -X POST --data-binary @fire.json "$base/api/frame?path=fire.json&t=0.5&w=160&h=90")"
check "frame bytes" 57600 "$(stat -c %s "$work/body")"
cp "$work/body" "$work/frame_a"
bigger="$(sed 's/"size_max": 0.3/"size_max": 1.2/' fire.json)"
check "frame changed doc" 200 "$(status -X POST --data-binary "$bigger" "$base/api/frame?path=fire.json&t=0.5&w=160&h=90")"
if cmp -s "$work/frame_a" "$work/body"; then failed=$((failed + 1)); echo "FAIL frames: a changed size_max drew the same picture"; else passed=$((passed + 1)); fi

# Pushed frames (Server-Sent Events, edit_stream.hpp): a stream opened, a document given, the
# frame pushed at the size asked (base64 of raw RGBA); play pushes later times, a pause at a time
# pushes that time; a broken document pushes an error event with its pointer; bad requests are
# refused and the stream goes on.
sse="$work/stream.txt"
curl -sN "$base/api/stream?session=t1&w=96&h=64" > "$sse" 2>/dev/null &
spid=$!
has() {  # has PATTERN SECONDS: the stream has a line matching PATTERN within SECONDS
  for _ in $(seq $(($2 * 10))); do grep -q -- "$1" "$sse" && return 0; sleep 0.1; done
  return 1
}
expect_stream() {  # expect_stream NAME PATTERN SECONDS
  if has "$2" "$3"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: no '$2' in the stream"; fi
}
last_frame() {  # the last frame event's "t width height bytes version"
  grep '^data: {"alive"' "$sse" | tail -1 | cut -c7- | python3 -c '
import base64, json, sys
d = json.load(sys.stdin)
print(d["t"], d["width"], d["height"], len(base64.b64decode(d["rgba"])), d["version"], d["seq"])'
}
sleep 0.5
check "preview document" 200 "$(status --data-binary @fire.json "$base/api/preview?session=t1&path=fire.json&version=7")"
expect_stream "a frame is pushed" '"version":7' 120
check "pushed frame: time 0, the size asked, raw RGBA" "0.0 96 64 24576 7 0" "$(last_frame)"
check "play" 200 "$(status -d '' "$base/api/transport?session=t1&playing=1&seq=5")"
expect_stream "playing pushes later frames" '"t":[1-9]\.' 120
check "pause at 2.5" 200 "$(status -d '' "$base/api/transport?session=t1&playing=0&t=2.5")"
expect_stream "the paused time's frame is pushed" '"t":2.5,' 120
sleep 1
check "paused: the last frame is the one asked for, with the latest change's seq" "2.5 96 64 24576 7 5" "$(last_frame)"
frames="$(grep -c '^event: frame' "$sse")"
sleep 2
check "paused: no more frames" "$frames" "$(grep -c '^event: frame' "$sse")"
check "broken document" 200 "$(status --data-binary "$broken" "$base/api/preview?session=t1&path=fire.json&version=8")"
expect_stream "an error event" '^event: frame_error' 60
contains "the error event's pointer" '"where":"/modules/update/1/drag"' "$(grep -A1 '^event: frame_error' "$sse" | tail -1)"
check "bad session" 400 "$(status -d '' "$base/api/transport?session=a%20b&playing=1")"
check "bad playing" 400 "$(status -d '' "$base/api/transport?session=t1&playing=yes")"
check "bad scale" 400 "$(status -d '' "$base/api/transport?session=t1&playing=1&scale=0")"
check "bad time" 400 "$(status -d '' "$base/api/transport?session=t1&playing=0&t=-1")"
check "preview outside the folder" 403 "$(status --data-binary @fire.json "$base/api/preview?session=t1&path=../outside.json")"
check "malformed preview" 400 "$(status --data-binary '{"modules": [' "$base/api/preview?session=t1&path=fire.json")"
check "stream too small" 400 "$(status "$base/api/stream?session=t2&w=8&h=8")"
check "a second stream on a session" 400 "$(status --max-time 5 "$base/api/stream?session=t1")"
check "fixed document" 200 "$(status --data-binary @fire.json "$base/api/preview?session=t1&path=fire.json&version=9")"
expect_stream "the stream goes on after bad requests" '"version":9' 120
kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null
sleep 1.5  # the next keep-alive write finds the page gone
check "a closed stream frees its session" 200 "$(status --max-time 2 "$base/api/stream?session=t1&w=96&h=64")"

# Saving inside the folder, then reading it back.
check "save" 200 "$(status -X PUT --data-binary "$bigger" "$base/api/file?path=fire.json")"
contains "saved" '"size_max": 1.2' "$(cat fire.json)"
check "server alive at the end" 200 "$(status "$base/api/info")"
kill -0 "$pid" 2>/dev/null && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL the server exited"; }
# The verb's own refusals: an EFFECT outside the folder is usage (2); no page built is the machine's (3).
timeout 20 "$mote" edit ../outside.json --port 0 > /dev/null 2>&1
check "EFFECT outside the folder" 2 "$?"
timeout 20 "$mote" edit fire.json --port 0 --editor-dir "$work/no_page" > "$work/out" 2>&1
check "no page built" 3 "$?"
contains "no page says how" 'npm' "$(cat "$work/out")"
timeout 20 "$mote" edit fire.json --port "$port" > "$work/out" 2>&1
check "port taken" 3 "$?"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
