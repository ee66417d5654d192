#!/usr/bin/env bash
# Builds the release binaries of cube into a folder, with their SHA-256 sums
# in SHA256SUMS:
#   linux/amd64 and windows/amd64 with the window (cgo; Windows through
#   mingw-w64, Debian package gcc-mingw-w64-x86-64, which scripts/deps.sh
#   installs), linux/arm64, darwin/arm64 and darwin/amd64 headless
#   (CGO_ENABLED=0: the macOS window needs a Mac to build, see docs/operations.md).
# Each is stamped with VERSION and the commit (git rev-parse HEAD, with
# "-modified" when tracked files have uncommitted changes) through -ldflags -X,
# so `cube version` names them even where Go records no VCS information.
# Then checks what it wrote: the sums, each binary's system, CPU and stamp
# (go version -m), that the Windows one imports OPENGL32.dll, and the
# `cube version` line of the Linux ones (arm64 under qemu-aarch64).
# Usage: scripts/release.sh VERSION [DIR]   (DIR: dist/cube-VERSION)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/release.sh VERSION [DIR]" >&2
  exit 2
fi
version=$1
if ! [[ $version =~ ^[0-9A-Za-z][0-9A-Za-z._+-]*$ ]]; then
  echo "release: VERSION must be letters, digits and . _ + - (for example v1.2.0), not '$version'" >&2
  exit 2
fi
dir=${2:-dist/cube-$version}
commit=$(git rev-parse HEAD)
if ! git diff --quiet HEAD -- 2>/dev/null; then
  commit="$commit-modified"
fi
mingw=x86_64-w64-mingw32-gcc
if ! command -v "$mingw" >/dev/null; then
  echo "release: $mingw not found (Debian package gcc-mingw-w64-x86-64; scripts/deps.sh installs it)" >&2
  exit 1
fi
qemu=$(command -v qemu-aarch64 || command -v qemu-aarch64-static || true)
if [ -z "$qemu" ]; then
  echo "release: qemu-aarch64 not found (Debian package qemu-user)" >&2
  exit 1
fi
mkdir -p "$dir"
ldflags="-s -w -X main.version=$version -X main.commit=$commit"

# target: GOOS GOARCH CGO_ENABLED CC
targets=(
  "windows amd64 1 $mingw"
  "linux amd64 1 gcc"
  "linux arm64 0 -"
  "darwin arm64 0 -"
  "darwin amd64 0 -"
)
bins=()
for t in "${targets[@]}"; do
  read -r os arch cgo cc <<<"$t"
  bin="cube-$version-$os-$arch"
  if [ "$os" = windows ]; then bin="$bin.exe"; fi
  start=$SECONDS
  vars=(GOOS="$os" GOARCH="$arch" CGO_ENABLED="$cgo")
  if [ "$cc" != - ]; then vars+=(CC="$cc"); fi
  env "${vars[@]}" go build -ldflags "$ldflags" -o "$dir/$bin" ./cmd/cube
  echo "release: built $bin ($((SECONDS - start)) s)"
  bins+=("$bin")
done
(cd "$dir" && sha256sum "${bins[@]}" >SHA256SUMS)

# Check what was written.
(cd "$dir" && sha256sum --quiet -c SHA256SUMS)
for t in "${targets[@]}"; do
  read -r os arch cgo _ <<<"$t"
  bin="cube-$version-$os-$arch"
  if [ "$os" = windows ]; then bin="$bin.exe"; fi
  info=$(go version -m "$dir/$bin")
  for want in "GOOS=$os" "GOARCH=$arch" "CGO_ENABLED=$cgo" "main.version=$version" "main.commit=$commit"; do
    if ! grep -q -F -e "$want" <<<"$info"; then
      echo "release: FAIL: $bin's build info lacks $want" >&2
      exit 1
    fi
  done
done
win="$dir/cube-$version-windows-amd64.exe"
dlls=$(x86_64-w64-mingw32-objdump -p "$win" | grep 'DLL Name:')
if ! grep -q -F 'OPENGL32.dll' <<<"$dlls"; then
  echo "release: FAIL: the Windows build does not import OPENGL32.dll (no window)" >&2
  exit 1
fi
line="cube $version (revision $commit)"
for arch in amd64 arm64; do
  bin="$dir/cube-$version-linux-$arch"
  if [ "$arch" = arm64 ]; then out=$("$qemu" "$bin" version); else out=$("$bin" version); fi
  case "$out" in
    "$line"*) ;;
    *) echo "release: FAIL: linux/$arch prints '$out', not '$line ...'" >&2; exit 1 ;;
  esac
done
echo "release: ok, $dir holds ${#bins[@]} binaries and SHA256SUMS; each names $version and $commit"
