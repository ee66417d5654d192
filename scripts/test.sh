#!/usr/bin/env bash
# Runs every check of the project: formatting, go vet, staticcheck, the
# determinism analyzer (internal/detcheck), the unit tests (the window test
# under Xvfb), the cross-build determinism check, and the builds for Windows,
# macOS and linux/arm64 (scripts/release.sh).
# Installs what it needs first (scripts/deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.8.2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

scripts/deps.sh

echo "== gofmt"
bad=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$bad" ]; then
  echo "gofmt would change:"; echo "$bad"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== staticcheck"
go run "$STATICCHECK" ./...

echo "== determinism rules (detcheck)"
# Every rule in the engine and the lab's rules; the order rules (map order,
# goroutines, clocks, the global random source) where docs/determinism.md's rule 3
# names them too. ui/lab is left out of the order rules: the demo
# runs on the wall clock (frames, the simulation's budget, rewind timing).
go build -o "$tmp/detcheck" ./cmd/detcheck
go vet -vettool="$tmp/detcheck" ./physics/ ./game/ ./splitmix/
go vet -vettool="$tmp/detcheck" -detcheck.rules=order ./netcode/protocol/ ./netsim/ ./predict/ ./session/ ./server/ ./netcode/wire/

echo "== determinism across builds"
scripts/crossbuild-hash.sh
# The stage trace across machines: a product left unrounded under a test tag,
# amd64 against arm64, named by cube replay -diff-trace (docs/determinism.md).
scripts/fma-trace.sh
# The golden tests and the committed amd64 records, run as arm64 code.
CGO_ENABLED=0 GOARCH=arm64 go test -count=1 -exec "$(command -v qemu-aarch64)" -run Golden ./physics/ ./game/ ./netcode/wire/ ./record/

echo "== builds for other systems"
# windows/amd64 with the window (mingw-w64), linux/amd64 with the window,
# linux/arm64, darwin/arm64 and darwin/amd64 headless, stamped and checked.
scripts/release.sh v0.0.0-test "$tmp/release"

echo "== go test"
# The packages that open windows run one at a time, each under a virtual
# display of its own; the others need none and run in parallel.
windowed="github.com/cubelab/cube/ui/render github.com/cubelab/cube/ui/window github.com/cubelab/cube/cmd/cube"
others=$(go list ./... | grep -v -x -F -e github.com/cubelab/cube/ui/render -e github.com/cubelab/cube/ui/window -e github.com/cubelab/cube/cmd/cube)
# go test's default limit of 10 minutes a package is too close to what
# session's tests take on a busy machine: the whole run has 90.
go test -count=1 -timeout 30m $others
for p in $windowed; do
  xvfb-run -a -s "-screen 0 1280x720x24" go test -count=1 -timeout 30m "$p"
done

echo "== capacity bounds"
# Arena servers side by side with 4 players each (1 full client and 3
# bots), short: every tick p99 within a tick, every full client in sync and
# every bot joined (the long runs, the cubes scene's too, are
# docs/performance.md's: a cubes server's full client and its step need
# more than a short run on two shared cores gives them).
SERVERS="1 2" SCENES=arena scripts/capacity.sh 5

echo "== attacks"
# A server on loopback under five attacks (about 2 minutes).
scripts/attack.sh
