#!/usr/bin/env bash
# Runs every check of the project: formatting, go vet, staticcheck, the unit
# tests (the window test under Xvfb), and the cross-build determinism check.
# Installs what it needs first (scripts/deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.8.2

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

echo "== determinism across builds"
scripts/crossbuild-hash.sh
# The golden tests and the committed amd64 records, run as arm64 code.
CGO_ENABLED=0 GOARCH=arm64 go test -count=1 -exec "$(command -v qemu-aarch64)" -run Golden ./physics/ ./game/ ./wire/ ./record/

echo "== go test"
# The packages that open windows run one at a time, each under a virtual
# display of its own; the others need none and run in parallel.
windowed="github.com/cubelab/cube/render github.com/cubelab/cube/cmd/cube"
others=$(go list ./... | grep -v -x -F -e github.com/cubelab/cube/render -e github.com/cubelab/cube/cmd/cube)
go test -count=1 $others
for p in $windowed; do
  xvfb-run -a -s "-screen 0 1280x720x24" go test -count=1 "$p"
done

echo "== attacks"
# A server on loopback under five attacks (about 2 minutes).
scripts/attack.sh
