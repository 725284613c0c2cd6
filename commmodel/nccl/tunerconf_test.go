package nccl

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/inframethod/commlab/internal/parseerr"
)

// The facts of the example tuner plugin's format (NCCL's README of
// plugins/tuner/example and its plugin.c): 8 to 10 fields, numPipeOps and
// regBuff matching any value when left out, '#' lines and empty lines
// skipped, spaces around fields trimmed, -1 for any, and the first rule
// that matches applies.
func TestReadTunerRules(t *testing.T) {
	const file = `# a comment
allreduce,0,65536,tree,simple,2,1,-1,-1,1

 allreduce , 65537 , 1048576 , ring , simple , 4 , 4 , 32 , 1
allgather,0,4294967295,ring,ll128,-1,2,-1
allgather,0,4294967295,nvls,simple,-1,-1,-1
`
	rules, err := ReadTunerRules(strings.NewReader(file), "t.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := []TunerRule{
		{FuncAllReduce, 0, 65536, AlgoTree, Simple, 2, 1, -1, -1, 1},
		{FuncAllReduce, 65537, 1048576, AlgoRing, Simple, 4, 4, 32, 1, -1},
		{FuncAllGather, 0, 4294967295, AlgoRing, LL128, -1, 2, -1, -1, -1},
		{FuncAllGather, 0, 4294967295, AlgoNVLS, Simple, -1, -1, -1, -1, -1},
	}
	if !reflect.DeepEqual(rules, want) {
		t.Fatalf("read\n%v\nwant\n%v", rules, want)
	}
	// The first rule that matches applies: on 2 nodes AllGather is Ring,
	// on any other count NVLS.
	if r, ok := FirstMatch(rules, FuncAllGather, 1<<20, 2, 16, 1, 0); !ok || r.Algo != AlgoRing {
		t.Errorf("AllGather on 2 nodes: %v %v, want the ring rule", r, ok)
	}
	if r, ok := FirstMatch(rules, FuncAllGather, 1<<20, 4, 32, 1, 0); !ok || r.Algo != AlgoNVLS {
		t.Errorf("AllGather on 4 nodes: %v %v, want the NVLS rule", r, ok)
	}
	// Sizes are inclusive at both ends; regBuff 1 is required by the first.
	if _, ok := FirstMatch(rules, FuncAllReduce, 65536, 1, 8, 1, 0); ok {
		t.Error("unregistered 64 KiB AllReduce on one node matched the rule for registered buffers")
	}
	if r, ok := FirstMatch(rules, FuncAllReduce, 65536, 1, 8, 1, 1); !ok || r.Algo != AlgoTree {
		t.Errorf("registered 64 KiB AllReduce: %v %v, want the tree rule", r, ok)
	}
	if _, ok := FirstMatch(rules, FuncBroadcast, 1, 1, 8, 1, 0); ok {
		t.Error("a Broadcast matched, with no rule for it")
	}
	var b bytes.Buffer
	if err := WriteTunerRules(&b, []string{"written by a test"}, rules); err != nil {
		t.Fatal(err)
	}
	again, err := ReadTunerRules(&b, "again")
	if err != nil || !reflect.DeepEqual(again, rules) {
		t.Errorf("round trip: %v, %v", again, err)
	}
}

// TestReadTunerRulesErrors checks that what the plugin would misread is
// refused at its line and column.
func TestReadTunerRulesErrors(t *testing.T) {
	cases := []struct {
		line      string
		col       int
		mentioned string
	}{
		{"allreduce,0,1,rnig,simple,-1,-1,-1", 15, "read it as ring"},
		{"all_reduce,0,1,ring,simple,-1,-1,-1", 1, "read it as allreduce"},
		{"allreduce,0,1,ring,LL,-1,-1,-1", 20, "read it as simple"},
		{"allreduce,0,1,ring,simple,-1,-1", 0, "7 fields"},
		{"allreduce,0,1,ring,simple,-1,-1,-1,-1,-1,-1", 0, "11 fields"},
		{"allreduce,10,1,ring,simple,-1,-1,-1", 11, "matches nothing"},
		{"allreduce,0,1,ring,simple,-1,0,-1", 30, "positive count"},
		{"allreduce,0,1,ring,simple,-2,-1,-1", 27, "want 0 (NCCL's own)"},
		{"allreduce,0,1,ring,simple,-1,-1,-1,-1,2", 39, "regBuff"},
		{" # not a comment: '#' counts only first", 0, "fields"},
		{"allreduce,0,1,ring,simple,-1,-1,-1" + strings.Repeat(" ", 230), 0, "line"},
	}
	for _, c := range cases {
		_, err := ReadTunerRules(strings.NewReader("# ok\n"+c.line+"\n"), "t.conf")
		var pe *parseerr.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrTunerRule) || pe.Line != 2 || pe.Column != c.col || !strings.Contains(err.Error(), c.mentioned) {
			t.Errorf("%q: %v, want line 2 column %d mentioning %q", c.line, err, c.col, c.mentioned)
		}
	}
}

// TestReadTunerRulesExample reads NCCL's example rules file
// (testdata/nccl_tuner_example.conf, FuzzReadTunerRules's real seed): its
// 9 rules, of 8, 9 and 10 fields, all read.
func TestReadTunerRulesExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "nccl_tuner_example.conf"))
	if err != nil {
		t.Fatal(err)
	}
	rules, err := ReadTunerRules(bytes.NewReader(b), "nccl_tuner.conf")
	if err != nil || len(rules) != 9 {
		t.Fatalf("%d rules, %v; want 9", len(rules), err)
	}
	if r := rules[1]; r != (TunerRule{FuncAllReduce, 65537, 1048576, AlgoRing, Simple, 4, 4, 32, 1, 0}) {
		t.Errorf("second rule %v", r)
	}
}

// FuzzReadTunerRules: any input is read or refused, and what is read
// writes back to the same rules. Seeds: testdata/fuzz/FuzzReadTunerRules
// and NCCL's example rules file.
func FuzzReadTunerRules(f *testing.F) {
	example, err := os.ReadFile(filepath.Join("testdata", "nccl_tuner_example.conf"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(example))
	f.Add("allreduce,0,65536,tree,simple,2,1,-1,-1,1\n")
	f.Add("# c\n\nallgather, 0, 4294967295, nvls, simple, -1, -1, -1\n")
	f.Add("reduce,0,18446744073709551615,pat,ll128,-1,-1,-1,4\n")
	f.Fuzz(func(t *testing.T, s string) {
		rules, err := ReadTunerRules(strings.NewReader(s), "fuzz")
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteTunerRules(&b, nil, rules); err != nil {
			t.Fatal(err)
		}
		again, err := ReadTunerRules(&b, "again")
		if err != nil || len(again) != len(rules) || len(rules) > 0 && !reflect.DeepEqual(again, rules) {
			t.Fatalf("%q: read %v, written and read %v (%v)", s, rules, again, err)
		}
	})
}

// TestWriteTunerRulesCommentLines: a comment string of several lines is
// written as several comment lines, each prefixed with "# ", so the file
// reads back (a bare second line was "not a tuner rule" to ReadTunerRules,
// and to the plugin a rule line it cannot parse).
func TestWriteTunerRulesCommentLines(t *testing.T) {
	r := TunerRule{Func: FuncAllReduce, MaxBytes: 1 << 20, Algo: AlgoRing, Proto: Simple, Nodes: -1, Ranks: -1, PipeOps: -1, RegBuff: -1}
	var b bytes.Buffer
	if err := WriteTunerRules(&b, []string{"machine notes:\nnic_bw fitted\r\nthird"}, []TunerRule{r}); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n")[:3] {
		if !strings.HasPrefix(l, "# ") {
			t.Errorf("line %q is no comment:\n%s", l, b.String())
		}
	}
	rules, err := ReadTunerRules(&b, "rules.conf")
	if err != nil || len(rules) != 1 || rules[0] != r {
		t.Errorf("read back: %+v, %v; want the one rule", rules, err)
	}
}
