// Command detcheck runs the determinism analyzer (package detcheck) as a
// go vet tool:
//
//	go build -o /tmp/detcheck ./cmd/detcheck
//	go vet -vettool=/tmp/detcheck ./physics/ ./game/
//	go vet -vettool=/tmp/detcheck -detcheck.rules=order ./predict/
package main

import (
	"github.com/cubelab/cube/internal/detcheck"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() { unitchecker.Main(detcheck.Analyzer) }
