package nccl

import (
	"fmt"
	"strings"
	"testing"
)

// TestCheckTunerRulesUncapped: NCCL takes the channels a plugin gives a
// CollNet call, or an NVLS call across nodes, as they are
// (scheduleCollTasksToPlan in src/enqueue.cc schedules them as CollNet,
// without the cap at comm->nChannels that every other algorithm's get), so
// a rule of more channels than the communicator sets up for the algorithm
// is a hazard; as many is none, and so is a Ring rule of more, which NCCL
// caps. The most is what NCCL's own choice gives a large call
// (MaxChannels at 2^44 B).
func TestCheckTunerRulesUncapped(t *testing.T) {
	cfg := hopperConfig(Latest, 2, PathPIX)
	cfg.CollNet = true
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	comm := TunerComm{2, m}
	for _, a := range []Algo{AlgoCollNetDirect, AlgoCollNetChain, AlgoNVLS} {
		most, ok := m.Uncapped(a)
		if want, _ := m.MaxChannels(a, Simple, 1<<44); !ok || most != want || most < 1 {
			t.Fatalf("Uncapped(%v) = %d, %v; want %d, true", a, most, ok, want)
		}
	}
	if _, ok := m.Uncapped(AlgoRing); ok {
		t.Error("Ring's channels reported uncapped; NCCL caps them at the communicator's")
	}
	one, err := New(h100Node(Latest))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := one.Uncapped(AlgoNVLS); ok {
		t.Error("NVLS on one node reported uncapped; NCCL caps it at comm->nvlsChannels")
	}
	most, _ := m.Uncapped(AlgoCollNetDirect)
	check := func(rule string) []TunerProblem {
		t.Helper()
		file := rule + "\n"
		for g := range Func(NumFuncs) {
			file += fmt.Sprintf("%s,0,18446744073709551615,ring,simple,4,2,16\n", tunerFuncNames[g])
		}
		probs, err := CheckTunerRules(strings.NewReader(file), "uncapped.conf", []TunerComm{comm})
		if err != nil {
			t.Fatal(err)
		}
		var out []TunerProblem
		for _, p := range probs {
			if p.Hazard == HazardUncapped {
				out = append(out, p)
			}
		}
		return out
	}
	over := fmt.Sprintf("allreduce,0,18446744073709551615,collnet_direct,simple,%d,2,16", most+1)
	if p := check(over); len(p) != 1 || p[0].Line != 1 || !strings.Contains(p[0].Message, fmt.Sprintf("2 x 8 (%d)", most)) {
		t.Errorf("%s: %v; want one uncapped-channels hazard at line 1 naming 2 x 8 (%d)", over, p, most)
	}
	for _, ok := range []string{
		fmt.Sprintf("allreduce,0,18446744073709551615,collnet_direct,simple,%d,2,16", most),
		"allreduce,0,18446744073709551615,ring,simple,64,2,16",
	} {
		if p := check(ok); len(p) != 0 {
			t.Errorf("%s: %v; want no uncapped-channels hazard", ok, p)
		}
	}
}

// TestTunerRulesUncapped: rules of CollNet, whose channels NCCL takes from
// the plugin as they are (Uncapped), name NCCLChannels, so that NCCL runs
// them on the channels its own tuning gives them, which it set up: on the
// description and on an alternative whose graphs found 2 channels where the
// description's found 12, the check finds no uncapped channels.
func TestTunerRulesUncapped(t *testing.T) {
	cfg := hopperConfig(Latest, 2, PathPIX)
	cfg.CollNet = true
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	few := cfg
	few.Graphs.Ring.NChannels, few.Graphs.Tree.NChannels, few.Graphs.CollNetChain.NChannels = 2, 2, 2
	alt, err := New(few)
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := m.Uncapped(AlgoCollNetDirect)
	fewest, _ := alt.Uncapped(AlgoCollNetDirect)
	if fewest >= ours {
		t.Fatalf("the alternative sets up %d CollNet channels, the description %d; want fewer", fewest, ours)
	}
	pick := func(uint64) (Algo, Protocol, error) { return AlgoCollNetDirect, Simple, nil }
	rules, err := m.TunerRules(FuncAllReduce, 2, pick, nil, alt)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range rules {
		if r.Channels != NCCLChannels {
			t.Errorf("%v: want NCCL's own channels (%d)", r, NCCLChannels)
		}
		fmt.Fprintln(&b, r)
	}
	for _, model := range []*Model{m, alt} {
		probs, err := CheckTunerRules(strings.NewReader(b.String()), "collnet.conf", []TunerComm{{2, model}})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probs {
			if p.Hazard == HazardUncapped {
				t.Errorf("%v", p)
			}
		}
	}
}

// TestCheckTunerRulesFewerChannels: a rule NCCL follows whose channel
// count is below what NCCL's own tuning gives its algorithm and protocol
// at the rule's largest size is named, and fails nothing (the file runs as
// it says); a count of NCCLChannels, NCCL's own, and one of the most
// NCCL runs, are not named. Before, the check passed a rule of 2 channels
// on KISTI's SHARP 4 x 2, whose NCCL set up 3 (red team).
func TestCheckTunerRulesFewerChannels(t *testing.T) {
	m, err := New(hopperConfig(Latest, 2, PathPIX))
	if err != nil {
		t.Fatal(err)
	}
	most, _ := m.MaxChannels(AlgoRing, Simple, 1<<44)
	if most < 2 {
		t.Fatalf("NCCL runs Ring/Simple on %d channels; want 2 or more", most)
	}
	for _, c := range []struct {
		channels int
		named    bool
	}{{1, true}, {most - 1, true}, {most, false}, {NCCLChannels, false}} {
		var b strings.Builder
		for g := range Func(NumFuncs) {
			fmt.Fprintf(&b, "%s,0,18446744073709551615,ring,simple,%d,2,16\n", tunerFuncNames[g], c.channels)
		}
		probs, err := CheckTunerRules(strings.NewReader(b.String()), "fewer.conf", []TunerComm{{2, m}})
		if err != nil {
			t.Fatal(err)
		}
		fewer := 0
		for _, p := range probs {
			if p.Hazard == HazardFewerChannels {
				fewer++
				if p.Fails() || !strings.Contains(p.Message, fmt.Sprintf("2 x 8 (%d)", most)) {
					t.Errorf("%d channels: %+v; want a problem that fails nothing, naming 2 x 8 (%d)", c.channels, p, most)
				}
			} else if p.Fails() {
				t.Errorf("%d channels: %+v", c.channels, p)
			}
		}
		if want := map[bool]int{true: int(NumFuncs), false: 0}[c.named]; fewer != want {
			t.Errorf("%d channels: %d fewer-channel problems, want %d", c.channels, fewer, want)
		}
	}
}
