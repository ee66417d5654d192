package detcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// The rules' names, as findings and //cube:allow comments spell them.
const (
	RuleFMA       = "fma"
	RuleMath      = "math"
	RuleMapRange  = "maprange"
	RuleGoroutine = "goroutine"
	RuleClock     = "clock"
	RuleRand      = "rand"
	RuleFloat32   = "float32"
	RuleAllow     = "allow"
)

// allRules lists every rule but allow, which is always on.
var allRules = []string{RuleFMA, RuleMath, RuleMapRange, RuleGoroutine, RuleClock, RuleRand, RuleFloat32}

// groups are names the -rules flag accepts for several rules at once.
var groups = map[string][]string{
	"all":   allRules,
	"order": {RuleMapRange, RuleGoroutine, RuleClock, RuleRand},
}

// Analyzer reports breaks of the determinism rules; see the package comment.
var Analyzer = &analysis.Analyzer{
	Name: "detcheck",
	Doc: "report breaks of cube's determinism rules: unrounded products feeding sums (fused multiply-add), " +
		"math functions that differ across CPUs, map iteration, goroutines, clocks, the global random source, float32; " +
		"//cube:allow RULE reason silences one line",
	URL: "https://github.com/cubelab/cube#the-rules-the-engine-follows-and-the-commands-that-check-them",
	Run: run,
}

var rulesFlag = "all"

func init() {
	Analyzer.Flags.StringVar(&rulesFlag, "rules", "all",
		"comma-separated rules to check: "+strings.Join(allRules, ", ")+", or the groups all and order (maprange, goroutine, clock, rand)")
}

// parseRules turns the -rules flag into a set of rule names.
func parseRules(s string) (map[string]bool, error) {
	set := map[string]bool{RuleAllow: true}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if g, ok := groups[name]; ok {
			for _, r := range g {
				set[r] = true
			}
			continue
		}
		if !known(name) {
			return nil, fmt.Errorf("detcheck: unknown rule %q in -rules (valid: %s, all, order)", name, strings.Join(allRules, ", "))
		}
		set[name] = true
	}
	return set, nil
}

// known reports whether name is a rule a //cube:allow comment may name.
func known(name string) bool {
	for _, r := range allRules {
		if r == name {
			return true
		}
	}
	return false
}

// finding is one report before //cube:allow comments filter it.
type finding struct {
	pos  token.Pos
	rule string
	msg  string
}

// checker holds one package's analysis.
type checker struct {
	pass     *analysis.Pass
	rules    map[string]bool
	findings []finding
}

// report records a finding of rule at pos, if the rule is checked.
func (c *checker) report(pos token.Pos, rule, format string, args ...any) {
	if !c.rules[rule] {
		return
	}
	c.findings = append(c.findings, finding{pos, rule, rule + ": " + fmt.Sprintf(format, args...)})
}

func run(pass *analysis.Pass) (any, error) {
	rules, err := parseRules(rulesFlag)
	if err != nil {
		return nil, err
	}
	c := &checker{pass: pass, rules: rules}
	var files []*ast.File
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		files = append(files, f)
	}
	allowed := c.allows(files)
	c.checkFMA(files)
	for _, f := range files {
		c.checkFile(f)
	}
	sort.SliceStable(c.findings, func(i, j int) bool { return c.findings[i].pos < c.findings[j].pos })
	seen := map[string]bool{}
	for _, f := range c.findings {
		p := pass.Fset.Position(f.pos)
		if allowed[allowKey{p.Filename, p.Line, f.rule}] {
			continue
		}
		// One finding per line and message: a line that says float32
		// three times needs one fix.
		key := fmt.Sprintf("%s:%d:%s", p.Filename, p.Line, f.msg)
		if seen[key] {
			continue
		}
		seen[key] = true
		pass.Report(analysis.Diagnostic{Pos: f.pos, Category: f.rule, Message: f.msg})
	}
	return nil, nil
}
