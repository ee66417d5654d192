#!/usr/bin/env bash
# Installs what building and testing cube needs on Debian or Ubuntu, saying
# what it installs: the X11 and OpenGL headers for glfw, Xvfb and Mesa's
# software renderer for the window tests, qemu-user for the arm64 check,
# mingw-w64 for the Windows build with the window, buildah for cube
# server's image (scripts/image.sh).
# Then downloads the Go modules. Safe to run again: it installs only what is
# missing.
set -euo pipefail
pkgs=(gcc pkg-config xorg-dev libgl1-mesa-dev xvfb libgl1-mesa-dri xauth qemu-user gcc-mingw-w64-x86-64 buildah)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v go >/dev/null; then
  echo "deps: Go 1.26 or later is needed (https://go.dev/dl/)" >&2
  exit 1
fi
cd "$(dirname "$0")/.."
go mod download
