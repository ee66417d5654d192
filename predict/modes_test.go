package predict

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestModesAreParts: the client holds at most 25 fields, its sync modes
// are parts of their own (clientState, clientInputs) behind syncMode, and
// no code of the package outside NewClient tests Config.Mode: a reader
// changing one mode finds its differences in its part.
func TestModesAreParts(t *testing.T) {
	if n := reflect.TypeFor[Client]().NumField(); n > 25 {
		t.Errorf("predict.Client has %d fields, more than 25", n)
	}
	var _ syncMode = &clientState{}
	var _ syncMode = &clientInputs{}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || fn.Name.Name == "NewClient" {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
					for _, side := range []ast.Expr{b.X, b.Y} {
						if sel, ok := side.(*ast.SelectorExpr); ok && sel.Sel.Name == "Mode" {
							t.Errorf("%s: %s tests the sync mode; ask c.mode instead", fset.Position(b.Pos()), fn.Name.Name)
						}
					}
				}
				return true
			})
		}
	}
}
