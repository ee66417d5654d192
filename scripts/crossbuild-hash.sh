#!/usr/bin/env bash
# Builds `cube` without cgo for several CPU targets, runs `cube hash` on each
# (arm64, riscv64, ppc64le and s390x under qemu-user: the last is big-endian,
# and all four have fused multiply-add instructions the compiler may use) for
# the arena, pyramid and cubes scenes (riscv64, ppc64le and s390x for an
# eighth of the ticks) and fails unless every build prints the same hash for
# each scene. Then records sessions with the amd64 (v1) build and replays
# them on every other build.
# Usage: scripts/crossbuild-hash.sh [TICKS] (TICKS replaces every scene's
# default: arena 10000, pyramid 3840, cubes 2048).
set -euo pipefail
ticks=${1:-}
scenes=(arena:10000 pyramid:3840 cubes:2048)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$(dirname "$0")/.."

declare -A env=(
  [amd64-v1]="GOARCH=amd64 GOAMD64=v1"
  [amd64-v3]="GOARCH=amd64 GOAMD64=v3"
  [386]="GOARCH=386 GO386=sse2"
  [arm64]="GOARCH=arm64"
  [riscv64]="GOARCH=riscv64"
  [ppc64le]="GOARCH=ppc64le"
  [s390x]="GOARCH=s390x"
)
# The emulator each foreign target runs under (none: the host runs it).
declare -A emu=([arm64]=qemu-aarch64 [riscv64]=qemu-riscv64 [ppc64le]=qemu-ppc64le [s390x]=qemu-s390x)
targets=(amd64-v1 amd64-v3 386 arm64 riscv64 ppc64le s390x)
# The targets whose emulation is slowest run an eighth of each scene's
# ticks, against amd64's hash of as many, and replay the records that are
# not the cubes scene's: ppc64le took over 3 minutes of CPU for 2048 cubes
# ticks, which would have doubled this check's time.
declare -A slow=([riscv64]=1 [ppc64le]=1 [s390x]=1)
for target in "${targets[@]}"; do
  if [ -n "${emu[$target]:-}" ] && ! command -v "${emu[$target]}" >/dev/null; then
    echo "crossbuild-hash: ${emu[$target]} not found (Debian package qemu-user)" >&2
    exit 1
  fi
  env CGO_ENABLED=0 GOOS=linux ${env[$target]} go build -o "$out/cube-$target" ./cmd/cube
done
# run TARGET ARGS... runs the build for TARGET, under its emulator if any.
run() {
  local target=$1
  shift
  if [ -n "${emu[$target]:-}" ]; then
    "${emu[$target]}" "$out/cube-$target" "$@"
  else
    "$out/cube-$target" "$@"
  fi
}
fail=0
for entry in "${scenes[@]}"; do
  scene=${entry%%:*}
  n=${ticks:-${entry##*:}}
  short=$((n >= 8 ? n / 8 : 1))
  first=""
  firstShort=$(run amd64-v1 hash -scene "$scene" -ticks "$short")
  for target in "${targets[@]}"; do
    if [ -n "${slow[$target]:-}" ]; then
      h=$(run "$target" hash -scene "$scene" -ticks "$short")
      printf '%-8s %-9s %s (%d ticks)\n' "$scene" "$target" "$h" "$short"
      if [ "$h" != "$firstShort" ]; then fail=1; fi
      continue
    fi
    h=$(run "$target" hash -scene "$scene" -ticks "$n")
    printf '%-8s %-9s %s\n' "$scene" "$target" "$h"
    if [ -z "$first" ]; then first=$h; elif [ "$h" != "$first" ]; then fail=1; fi
  done
  if [ "$fail" = 1 ]; then
    echo "crossbuild-hash: FAIL: the builds disagree on $scene" >&2
    exit 1
  fi
  echo "crossbuild-hash: ok, all builds agree on $scene: $first after $n ticks, $firstShort after $short"
done

# Records made on amd64 replay bit for bit elsewhere: the original demo's
# server losing inputs (no redundancy, bad link: skips) and nudged (server
# events); the cubes scene, quantised, pulled about; three players in the
# pyramid with nudges, on the clocked server.
"$out/cube-amd64-v1" sim -input-driven -preset bad -no-redundancy -seconds 30 -nudge-every 2 -seed 7 \
  -record "$out/skips.rec" >/dev/null
"$out/cube-amd64-v1" sim -scene cubes -quantize -preset average -seconds 10 -seed 7 \
  -record "$out/cubes.rec" >/dev/null
"$out/cube-amd64-v1" sim -scene pyramid -players 3 -preset average -seconds 20 -nudge-every 3 -seed 7 \
  -record "$out/players.rec" >/dev/null
for rec in skips cubes players; do
  for target in "${targets[@]:1}"; do
    if [ "$rec" = cubes ] && [ -n "${slow[$target]:-}" ]; then
      continue
    fi
    r=$(run "$target" replay "$out/$rec.rec")
    printf '%-8s %-9s replay: %s\n' "$rec" "$target" "$r"
    case "$r" in
      ok*) ;;
      *) echo "crossbuild-hash: FAIL: the amd64 $rec record does not replay on $target" >&2; exit 1 ;;
    esac
  done
done
echo "crossbuild-hash: ok, amd64 records (skips, cubes, three players) replay on ${targets[*]:1} (cubes' on amd64-v3, 386 and arm64)"
