#!/usr/bin/env bash
# Builds cube server's OCI image with buildah (Debian package buildah;
# scripts/deps.sh installs it): a static CGO_ENABLED=0 binary at /cube in
# an image from scratch, one layer holding only that file, run as the
# non-root user 65532:65532, UDP port 4242 exposed, `cube server` as the
# entrypoint and `-listen 0.0.0.0:4242` as its default arguments (Agones's
# args replace them). No registry and no container run is needed: the
# image is written as an OCI archive.
# Usage: scripts/image.sh [OUT.tar]   (default: dist/cube-image.tar)
# With BUILDAH_ROOT set, buildah keeps its storage there (vfs driver)
# instead of its system-wide default; the test uses a temporary one.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist/cube-image.tar}
if ! command -v buildah >/dev/null; then
  echo "image: buildah not found (Debian package buildah; scripts/deps.sh installs it)" >&2
  exit 1
fi
version=$(git describe --tags --always --dirty 2>/dev/null || echo devel)
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
tmp=$(mktemp -d)
b=(buildah)
if [ -n "${BUILDAH_ROOT:-}" ]; then
  b+=(--storage-driver vfs --root "$BUILDAH_ROOT/storage" --runroot "$BUILDAH_ROOT/run")
fi
ctr=""
cleanup() {
  if [ -n "$ctr" ]; then "${b[@]}" rm "$ctr" >/dev/null 2>&1 || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version -X main.commit=$commit" -o "$tmp/cube" ./cmd/cube
ctr=$("${b[@]}" from --format oci scratch)
"${b[@]}" copy --chmod 0755 "$ctr" "$tmp/cube" /cube >/dev/null
"${b[@]}" config --entrypoint '["/cube", "server"]' --cmd '-listen 0.0.0.0:4242' \
  --user 65532:65532 --port 4242/udp --workingdir / \
  --label org.opencontainers.image.title=cube --label org.opencontainers.image.version="$version" \
  --label org.opencontainers.image.revision="$commit" "$ctr"
mkdir -p "$(dirname "$out")"
rm -f "$out"
"${b[@]}" commit --quiet --format oci "$ctr" "oci-archive:$out:cube:$version" >/dev/null
echo "image: $out (cube:$version, $(du -h "$out" | cut -f1))"
