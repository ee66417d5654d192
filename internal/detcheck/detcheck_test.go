package detcheck

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// Each package of testdata/src holds bad lines, marked with the finding
// they must give (// want), and good lines, which must give none.

func TestFMA(t *testing.T) { analysistest.Run(t, analysistest.TestData(), Analyzer, "fma") }

func TestMath(t *testing.T) { analysistest.Run(t, analysistest.TestData(), Analyzer, "mathcalls") }

func TestOrder(t *testing.T) { analysistest.Run(t, analysistest.TestData(), Analyzer, "order") }

func TestFloat32(t *testing.T) { analysistest.Run(t, analysistest.TestData(), Analyzer, "float32s") }

func TestAllow(t *testing.T) { analysistest.Run(t, analysistest.TestData(), Analyzer, "allow") }

func TestRulesFlag(t *testing.T) {
	setRules(t, "order")
	analysistest.Run(t, analysistest.TestData(), Analyzer, "rulesflag")
}

func TestRulesFlagRefusesUnknown(t *testing.T) {
	if _, err := parseRules("fma,trig"); err == nil {
		t.Fatal("parseRules accepted the unknown rule trig")
	}
	set, err := parseRules("order")
	if err != nil {
		t.Fatal(err)
	}
	if set[RuleFMA] || !set[RuleMapRange] || !set[RuleAllow] {
		t.Errorf("order gives %v, want the order rules and allow only", set)
	}
}

// setRules sets the -rules flag for one test.
func setRules(t *testing.T, v string) {
	old := rulesFlag
	rulesFlag = v
	t.Cleanup(func() { rulesFlag = old })
}
