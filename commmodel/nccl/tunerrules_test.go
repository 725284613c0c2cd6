package nccl

import (
	"slices"
	"testing"
)

// TestTunerRulesNoDeadAlternatives: after a rule of NVLS, which NCCL may
// leave out of a call's cost table, the rules of NCCL's choice among the
// others come first and take every such call, on m and on any
// alternative that keeps those others: an alternative of the 8 x H100
// node with no NVLS, and a Tree three times as fast, so that its own
// choice among the others is not the node's, adds no rule, where it added
// 7 of its own after them (12 rules for AllReduce against 5), which no
// call could reach.
func TestTunerRulesNoDeadAlternatives(t *testing.T) {
	m, err := New(h100Node(Latest))
	if err != nil {
		t.Fatal(err)
	}
	cfg := h100Node(Latest)
	cfg.Graphs.NVLS = Graph{}
	cfg.Graphs.Tree.BWIntra *= 3 // and its own choice among the others not m's
	alt, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Available(FuncAllReduce, AlgoNVLS, Simple) || alt.Available(FuncAllReduce, AlgoNVLS, Simple) {
		t.Fatal("want NVLS on the node and none on the alternative")
	}
	own, err := m.TunerRules(FuncAllReduce, 1, m.DefaultPick(FuncAllReduce), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(own, func(r TunerRule) bool { return r.Algo == AlgoNVLS }) {
		t.Fatal("no NVLS rule: the test says nothing")
	}
	with, err := m.TunerRules(FuncAllReduce, 1, m.DefaultPick(FuncAllReduce), nil, alt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(with, own) {
		t.Errorf("with the alternative: %d rules, without: %d; want the same", len(with), len(own))
	}
}

// TestTunerRulesNilPick: a nil pick or fallback, or a nil alternative, is
// an error, not a call of nil. TunerRules(f, nodes, nil, nil) panicked
// calling the nil TunerPick (a red team's report).
func TestTunerRulesNilPick(t *testing.T) {
	m, err := New(h100Node(Latest))
	if err != nil {
		t.Fatal(err)
	}
	f := FuncAllReduce
	for name, call := range map[string]func() ([]TunerRule, error){
		"TunerRules nil pick":              func() ([]TunerRule, error) { return m.TunerRules(f, 1, nil, nil) },
		"TunerRulesFalling nil pick":       func() ([]TunerRule, error) { return m.TunerRulesFalling(f, 1, nil, m.FallbackPick(f), nil) },
		"TunerRulesFalling nil fallback":   func() ([]TunerRule, error) { return m.TunerRulesFalling(f, 1, m.DefaultPick(f), nil, nil) },
		"TunerRules nil alternative model": func() ([]TunerRule, error) { return m.TunerRules(f, 1, m.DefaultPick(f), nil, nil) },
	} {
		rules, err := func() (r []TunerRule, err error) {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: panicked: %v", name, p)
				}
			}()
			return call()
		}()
		if err == nil || rules != nil {
			t.Errorf("%s: %d rules, error %v; want none and an error", name, len(rules), err)
		}
	}
}
