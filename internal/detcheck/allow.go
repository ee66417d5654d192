package detcheck

import (
	"go/ast"
	"strings"
)

// allowPrefix starts a comment that silences a rule on one line.
const allowPrefix = "//cube:allow"

// allowKey is a rule silenced on one line of one file.
type allowKey struct {
	file string
	line int
	rule string
}

// allows reads the //cube:allow comments of files. A well-formed one
// silences its rules on its own line, or on the next line when it stands
// alone on its line; a malformed one is an allow finding.
func (c *checker) allows(files []*ast.File) map[allowKey]bool {
	set := map[allowKey]bool{}
	for _, f := range files {
		for _, group := range f.Comments {
			for _, cm := range group.List {
				if !strings.HasPrefix(cm.Text, allowPrefix) {
					continue
				}
				rest := strings.TrimPrefix(cm.Text, allowPrefix)
				if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
					continue // another directive, such as //cube:allowed
				}
				fields := strings.Fields(rest)
				if len(fields) == 0 {
					c.report(cm.Pos(), RuleAllow, "a bare //cube:allow silences nothing; fix: //cube:allow RULE reason (RULE one of %s)", strings.Join(allRules, ", "))
					continue
				}
				names := strings.Split(fields[0], ",")
				bad := ""
				for _, n := range names {
					if !known(n) {
						bad = n
					}
				}
				if bad != "" {
					c.report(cm.Pos(), RuleAllow, "//cube:allow names an unknown rule %q; fix: one of %s", bad, strings.Join(allRules, ", "))
					continue
				}
				if len(fields) < 2 {
					c.report(cm.Pos(), RuleAllow, "//cube:allow %s has no reason; fix: //cube:allow %s WHY THIS LINE IS DETERMINISTIC", fields[0], fields[0])
					continue
				}
				p := c.pass.Fset.Position(cm.Pos())
				line := p.Line
				if c.standsAlone(p.Filename, p.Offset) {
					line++
				}
				for _, n := range names {
					set[allowKey{p.Filename, line, n}] = true
				}
			}
		}
	}
	return set
}

// standsAlone reports whether only blanks precede offset on its line of
// the file.
func (c *checker) standsAlone(filename string, offset int) bool {
	src, err := c.pass.ReadFile(filename)
	if err != nil || offset > len(src) {
		return false
	}
	for i := offset - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i] != ' ' && src[i] != '\t' {
			return false
		}
	}
	return true
}
