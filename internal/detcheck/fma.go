package detcheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// fma finds unrounded float products that feed a sum. Go's compiler fuses
// a multiplication and an addition or subtraction that follow each other in
// its SSA form, wherever they were written: in one expression, across
// statements through a local variable or a field of a local struct, and
// across an inlined call. So the checker follows values, not text, within
// the package: a product is unrounded until an explicit conversion
// (float64(a*b)) or a call that is not inlined into a product (mul) rounds
// it.
type fma struct {
	c      *checker
	info   *types.Info
	pkg    *types.Package
	held   map[localKey]source            // locals holding an unrounded product
	result map[*types.Func]source         // functions returning one
	adds   map[*types.Func]map[int]string // parameters each function adds, by index
}

// localKey names a local variable, or a field path in a local struct.
type localKey struct {
	v    *types.Var
	path string
}

// source is where an unrounded product was made.
type source struct {
	pos  token.Pos
	expr string
}

// checkFMA reports the fma rule over the package's files.
func (c *checker) checkFMA(files []*ast.File) {
	if !c.rules[RuleFMA] {
		return
	}
	s := &fma{c: c, info: c.pass.TypesInfo, pkg: c.pass.Pkg,
		held: map[localKey]source{}, result: map[*types.Func]source{}, adds: map[*types.Func]map[int]string{}}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				s.collectAdds(fd)
			}
		}
	}
	// Values flow through locals and results in any order; a few rounds
	// reach the fixed point (each round only adds).
	for round := 0; round < 8; round++ {
		n := len(s.held) + len(s.result)
		for _, f := range files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					fn, _ := s.info.Defs[fd.Name].(*types.Func)
					s.flow(fn, fd.Body)
				}
			}
		}
		if len(s.held)+len(s.result) == n {
			break
		}
	}
	for _, f := range files {
		ast.Inspect(f, s.check)
	}
}

// collectAdds records which float parameters of fd are operands of a sum
// in its body.
func (s *fma) collectAdds(fd *ast.FuncDecl) {
	fn, _ := s.info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return
	}
	params := fn.Type().(*types.Signature).Params()
	index := map[*types.Var]int{}
	for i := 0; i < params.Len(); i++ {
		if isFloat(params.At(i).Type()) {
			index[params.At(i)] = i
		}
	}
	if len(index) == 0 {
		return
	}
	note := func(e ast.Expr) {
		id, ok := strip(e).(*ast.Ident)
		if !ok {
			return
		}
		v, _ := s.info.Uses[id].(*types.Var)
		if i, ok := index[v]; ok {
			if s.adds[fn] == nil {
				s.adds[fn] = map[int]string{}
			}
			s.adds[fn][i] = v.Name()
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.ADD || n.Op == token.SUB) && isFloat(s.info.TypeOf(n)) {
				note(n.X)
				note(n.Y)
			}
		case *ast.AssignStmt:
			if (n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN) && len(n.Rhs) == 1 {
				note(n.Lhs[0])
				note(n.Rhs[0])
			}
		}
		return true
	})
}

// flow records the locals of body that are assigned an unrounded product,
// and fn (nil for a function literal) if it returns one.
func (s *fma) flow(fn *types.Func, body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			s.flow(nil, n.Body)
			return false
		case *ast.AssignStmt:
			switch n.Tok {
			case token.ASSIGN, token.DEFINE:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						s.hold(n.Lhs[i], n.Rhs[i])
					}
				}
			case token.MUL_ASSIGN:
				if isFloat(s.info.TypeOf(n.Lhs[0])) {
					if k, ok := s.local(n.Lhs[0]); ok {
						if _, done := s.held[k]; !done {
							s.held[k] = source{n.Pos(), exprString(n)}
						}
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i := range n.Names {
					s.hold(n.Names[i], n.Values[i])
				}
			}
		case *ast.ReturnStmt:
			if fn == nil {
				return true
			}
			if _, done := s.result[fn]; done {
				return true
			}
			for _, r := range n.Results {
				if src, ok := s.product(r); ok {
					s.result[fn] = src
					break
				}
			}
		}
		return true
	})
}

// hold records lhs as holding an unrounded product when rhs is one.
func (s *fma) hold(lhs, rhs ast.Expr) {
	src, ok := s.product(rhs)
	if !ok {
		return
	}
	if k, ok := s.local(lhs); ok {
		if _, done := s.held[k]; !done {
			s.held[k] = src
		}
	}
}

// local names e if it is a local variable or a field path in a local
// struct variable (not through a pointer).
func (s *fma) local(e ast.Expr) (localKey, bool) {
	var path []string
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			obj := s.info.Defs[x]
			if obj == nil {
				obj = s.info.Uses[x]
			}
			v, ok := obj.(*types.Var)
			if !ok || v.IsField() || v.Parent() == nil || v.Parent() == s.pkg.Scope() || v.Pkg() != s.pkg {
				return localKey{}, false
			}
			return localKey{v, strings.Join(path, ".")}, true
		case *ast.SelectorExpr:
			sel, ok := s.info.Selections[x]
			if !ok || sel.Kind() != types.FieldVal || sel.Indirect() {
				return localKey{}, false
			}
			path = append([]string{x.Sel.Name}, path...)
			e = x.X
		default:
			return localKey{}, false
		}
	}
}

// product reports whether e is an unrounded float product, written out,
// held in a local, or returned by a function of the package, and where it
// was made.
func (s *fma) product(e ast.Expr) (source, bool) {
	e = strip(e)
	if !isFloat(s.info.TypeOf(e)) {
		return source{}, false
	}
	if tv, ok := s.info.Types[e]; ok && tv.Value != nil {
		return source{}, false // a constant: folded, never multiplied at run time
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op == token.MUL {
			return source{x.Pos(), exprString(x)}, true
		}
	case *ast.Ident, *ast.SelectorExpr:
		if k, ok := s.local(x); ok {
			src, held := s.held[k]
			return src, held
		}
	case *ast.CallExpr:
		if fn := s.callee(x); fn != nil {
			src, ok := s.result[fn]
			return src, ok
		}
	}
	return source{}, false
}

// callee is the function of the package that call calls statically, or nil.
func (s *fma) callee(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := s.info.Uses[id].(*types.Func)
	if fn == nil || fn.Pkg() != s.pkg {
		return nil
	}
	return fn
}

// check reports the sums that an unrounded product feeds.
func (s *fma) check(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BinaryExpr:
		if (n.Op != token.ADD && n.Op != token.SUB) || !isFloat(s.info.TypeOf(n)) {
			return true
		}
		if tv, ok := s.info.Types[n]; ok && tv.Value != nil {
			return true
		}
		s.operand(n.X, n.Op)
		s.operand(n.Y, n.Op)
	case *ast.AssignStmt:
		if (n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN) && len(n.Rhs) == 1 && isFloat(s.info.TypeOf(n.Lhs[0])) {
			op := token.ADD
			if n.Tok == token.SUB_ASSIGN {
				op = token.SUB
			}
			s.operand(n.Lhs[0], op)
			s.operand(n.Rhs[0], op)
		}
	case *ast.CallExpr:
		fn := s.callee(n)
		for i, name := range s.adds[fn] {
			if i >= len(n.Args) {
				continue
			}
			if src, ok := s.product(n.Args[i]); ok {
				s.c.report(n.Args[i].Pos(), RuleFMA, "the unrounded product %s is passed to %s, which adds its parameter %s, so Go may fuse them once it inlines the call; fix: float64(%s) or mul",
					src.expr, fn.Name(), name, src.expr)
			}
		}
	}
	return true
}

// operand reports e when it is an unrounded product feeding a sum (op).
func (s *fma) operand(e ast.Expr, op token.Token) {
	src, ok := s.product(e)
	if !ok {
		return
	}
	what := "an addition"
	if op == token.SUB {
		what = "a subtraction"
	}
	switch x := strip(e).(type) {
	case *ast.BinaryExpr:
		s.c.report(x.Pos(), RuleFMA, "%s feeds %s without rounding, so Go may fuse them into one multiply-add (arm64, GOAMD64=v3); fix: float64(%s) or mul(%s, %s)",
			src.expr, what, src.expr, exprString(x.X), exprString(x.Y))
	case *ast.CallExpr:
		s.c.report(x.Pos(), RuleFMA, "%s returns the unrounded product %s (line %d), which feeds %s here once the call is inlined; fix: return float64(%s)",
			exprString(x.Fun), src.expr, s.c.pass.Fset.Position(src.pos).Line, what, src.expr)
	default:
		s.c.report(x.Pos(), RuleFMA, "%s holds the unrounded product %s (line %d), which feeds %s here; fix: round it where it is made, float64(%s) or mul",
			exprString(x), src.expr, s.c.pass.Fset.Position(src.pos).Line, what, src.expr)
	}
}

// strip removes parentheses and unary signs: -(a*b) + c fuses too.
func strip(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.SUB && x.Op != token.ADD {
				return e
			}
			e = x.X
		default:
			return e
		}
	}
}

// isFloat reports whether t is a floating-point type.
func isFloat(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// exprString is e as source, shortened for a one-line message.
func exprString(n ast.Node) string {
	var s string
	switch n := n.(type) {
	case ast.Expr:
		s = types.ExprString(n)
	case *ast.AssignStmt:
		s = types.ExprString(n.Lhs[0]) + " " + n.Tok.String() + " " + types.ExprString(n.Rhs[0])
	}
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
