#!/usr/bin/env bash
# The stage trace's worked example across machines: builds cube with the test
# tag cubefma, which leaves one product of the solver's soft normal row
# unrounded (physics/probe_fma.go), for amd64 (GOAMD64=v1: no fused
# multiply-add) and for arm64 (which fuses it), records a pyramid session
# with its stage hashes (-record-stages) with the amd64 build, replays it on
# both, and fails unless the arm64 replay names a solve stage of the first
# divergent tick's step by itself, from the record alone; then traces that
# tick on both and fails unless cube replay -diff-trace names the same stage
# and a contact's impulse there.
# Usage: scripts/fma-trace.sh [DIR] (DIR keeps the record and the traces).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-}
if [ -z "$out" ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
qemu=$(command -v qemu-aarch64 || command -v qemu-aarch64-static || true)
if [ -z "$qemu" ]; then
  echo "fma-trace: qemu-aarch64 not found (Debian package qemu-user)" >&2
  exit 1
fi
CGO_ENABLED=0 GOARCH=amd64 GOAMD64=v1 go build -tags cubefma -o "$out/cube-amd64" ./cmd/cube
CGO_ENABLED=0 GOARCH=arm64 go build -tags cubefma -o "$out/cube-arm64" ./cmd/cube
rm -f "$out/s.rec" "$out/amd64.stg" "$out/arm64.stg"
"$out/cube-amd64" sim -scene pyramid -preset perfect -seconds 4 -record "$out/s.rec" -record-stages >/dev/null
"$out/cube-amd64" replay "$out/s.rec" >/dev/null
set +e
report=$("$qemu" "$out/cube-arm64" replay "$out/s.rec")
code=$?
set -e
if [ "$code" != 1 ]; then
  echo "fma-trace: the arm64 build replayed the record with exit $code, want 1 (a divergence):" >&2
  echo "$report" >&2
  exit 1
fi
echo "$report" | head -3
stage=$(echo "$report" | sed -n 's/^stage hashes: tick [0-9]*.s step first differs at stage \([0-9]*\) of [0-9]*, substep [0-9]*: solve.*/\1/p')
if [ -z "$stage" ]; then
  echo "fma-trace: the arm64 replay does not name a solve stage from the record's stage hashes:" >&2
  echo "$report" >&2
  exit 1
fi
# The state labelled T is the first that differs: tick T-1 made it.
tick=$(echo "$report" | sed -n 's/^diverged at tick \([0-9]*\).*/\1/p')
tick=$((tick - 1))
"$out/cube-amd64" replay -trace "$tick" -o "$out/amd64.stg" "$out/s.rec" >/dev/null
"$qemu" "$out/cube-arm64" replay -trace "$tick" -o "$out/arm64.stg" "$out/s.rec" >/dev/null
set +e
diff=$("$out/cube-amd64" replay -diff-trace "$out/amd64.stg" "$out/arm64.stg")
code=$?
set -e
echo "$diff"
if [ "$code" != 1 ] || ! echo "$diff" | grep -q "^first differing stage: [0-9]*, substep [0-9]*: solve" || ! echo "$diff" | grep -q "first item: contact ([0-9-]*,[0-9-]*) point [0-9] pn"; then
  echo "fma-trace: want exit 1 and a solve stage's contact impulse named; got exit $code" >&2
  exit 1
fi
if ! echo "$diff" | grep -q "^first differing stage: $stage, "; then
  echo "fma-trace: the record's stage hashes named stage $stage, the traces another" >&2
  exit 1
fi
