#!/usr/bin/env bash
# Regenerates the README's images from the current build, under Xvfb and
# Mesa's llvmpipe (scripts/deps.sh installs them):
#   docs/screenshot.png        the arena, 1280x720 (the README's first image)
#   docs/cubes.png             the cubes scene with two bots, 1280x720
#   docs/viewer.png            the record viewer at a divergence, 1280x720
#   docs/shots/SCENE-WxH.png   each scene at 1280x720 and 640x360
#   docs/shots/SCENE-bots-WxH.png the same with two bots (-bots 2)
#   docs/shots/desync-WxH.png  a desync (injected nondeterminism) and its banner
#   docs/shots/refused-WxH.png a window refused by a server of another scene
#   docs/shots/cubes-bots-480x270.png the smallest size, with bots
#   docs/shots/viewer-divergence-W.png, viewer-report-W.png the record
#                              viewer at a divergence, and with its field report
#                              (the test TestViewerDivergence's pictures)
# Usage: scripts/screenshots.sh [OUTDIR] (default docs). Each run is a fixed
# number of frames with the autopilot; the pictures differ from run to run
# only by timing (frame rates, the network's pace).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs}
mkdir -p "$out/shots"
tmp=$(mktemp -d)
server_pid=
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/cube" ./cmd/cube
xvfb() { xvfb-run -a -s "-screen 0 1920x1080x24" "$@"; }
# shot NAME W H FRAMES [cube flags...]
shot() {
	local name=$1 w=$2 h=$3 frames=$4
	shift 4
	(cd "$tmp" && xvfb ./cube -width "$w" -height "$h" -frames "$frames" -screenshot "$tmp/$name.png" "$@" >"$tmp/$name.log" 2>&1) || {
		# a refused window exits 1 by design; anything else is a failure
		grep -q "refused this client" "$tmp/$name.log" || { cat "$tmp/$name.log"; exit 1; }
	}
	echo "$name: $(grep -h 'frames at' "$tmp/$name.log" | cut -d';' -f1 || true)"
}
for scene in arena cubes pyramid stack drop; do
	for size in "1280 720" "640 360"; do
		set -- $size
		frames=240
		[ "$scene" = drop ] && frames=120
		shot "$scene-$1x$2" "$1" "$2" "$frames" -scene "$scene" -autopilot -preset average
		cp "$tmp/$scene-$1x$2.png" "$out/shots/"
		frames=150
		[ "$scene" = drop ] && frames=90
		shot "$scene-bots-$1x$2" "$1" "$2" "$frames" -scene "$scene" -bots 2 -autopilot -preset average
		cp "$tmp/$scene-bots-$1x$2.png" "$out/shots/"
	done
done
for size in "1280 720" "640 360"; do
	set -- $size
	shot "desync-$1x$2" "$1" "$2" 200 -autopilot -preset average -inject-nondeterminism 40
	cp "$tmp/desync-$1x$2.png" "$out/shots/"
done
cp "$out/shots/cubes-bots-1280x720.png" "$out/cubes.png"
shot cubes-bots-480x270 480 270 150 -scene cubes -bots 2 -autopilot -preset average
cp "$tmp/cubes-bots-480x270.png" "$out/shots/"
shot arena-1280x720-readme 1280 720 120 -autopilot -preset average
cp "$tmp/arena-1280x720-readme.png" "$out/screenshot.png"

# A window refused by a server of another scene (loopback only).
"$tmp/cube" server -listen 127.0.0.1:0 >"$tmp/server.out" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
	grep -q '^listening' "$tmp/server.out" && break
	sleep 0.1
done
read -r _ addr _ pin <"$tmp/server.out"
for size in "1280 720" "640 360"; do
	set -- $size
	shot "refused-$1x$2" "$1" "$2" 60 -connect "$addr" -pin "$pin" -scene cubes
	cp "$tmp/refused-$1x$2.png" "$out/shots/"
done
# The record viewer at a divergence: the test damages a stored state of a
# cubes record and shoots the viewer after D, and after D and R.
CUBE_VIEWER_SHOTS="$(cd "$out/shots" && pwd)" xvfb go test -count=1 -run '^TestViewerDivergence$' ./cmd/cube
cp "$out/shots/viewer-divergence-1280.png" "$out/viewer.png"
# Smaller files: the README's three lossless, the rest in 8-bit colour.
go run ./cmd/pngshrink "$out/screenshot.png" "$out/cubes.png" "$out/viewer.png"
go run ./cmd/pngshrink -palette "$out"/shots/*.png
echo "images written to $out/ and $out/shots/"
