#!/usr/bin/env bash
# Installs what the demo needs (scripts/deps.sh), then builds and runs it.
# Any arguments go to cube: scripts/demo.sh -preset bad
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
go build -o cube ./cmd/cube
exec ./cube "$@"
