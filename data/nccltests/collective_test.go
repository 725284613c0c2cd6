package nccltests

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// alltoallLogs are real logs whose tables alltoall_perf printed, as their
// binary lines and Source comments say: every alltoall row prints "N/A" in
// its in-place #wrong column (src/alltoall.cu: reportErrors = in_place ? 0
// : 1), and the all_reduce and sendrecv tables of the same files do not
// read as alltoall.
// named says whether the file's name names alltoall.
var alltoallLogs = []struct {
	path  string
	named bool
}{
	{"../logs/h20-3e_2x2_alltoall_nccltests321.log", true},
	{"testdata/real/rtx6000d_2x8_alltoall_late2025.log", true},
	{"testdata/real/mi355x_1x8_allreduce_alltoall_trimmed.log", true},
	{"../logs/paired/gb300-nvl72/allreduce_alltoall_1to32hosts.log", true},
	{cluster01Dir + "/nccl_N2_G8_cnode3-002_cnode3-003.log", false},
}

// withoutBinary drops every line of text that names an nccl-tests binary
// (command lines, "Collective test starting"), as a log pasted without its
// header is.
func withoutBinary(text string) string {
	var keep []string
	for _, line := range strings.Split(text, "\n") {
		if len(binaryStems(line)) == 0 {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// unchecked rewrites both #wrong fields of every 13-field row to "N/A", as
// nccl-tests prints a run with -c 0 (no data check): the in-place column
// then tells nothing.
func unchecked(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) == 13 && allDigits(f[0]) {
			f[8], f[12] = "N/A", "N/A"
			lines[i] = strings.Join(f, " ")
		}
	}
	return strings.Join(lines, "\n")
}

// A log without the binary's name still reads as alltoall, from its
// in-place #wrong column; without that column's evidence, from the file's
// name; without either, as a guess with an ErrAmbiguous warning that names
// -collective.
func TestAllToAllWithoutBinaryName(t *testing.T) {
	for _, log := range alltoallLogs {
		path := log.path
		byName := FromFileName
		if !log.named {
			byName = FromGuess
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		named, err := read(strings.NewReader(string(b)), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		bare := withoutBinary(string(b))
		for _, c := range []struct {
			what, text, name string
			from             Inference // of the alltoall tests
		}{
			{"no binary line", bare, path, FromCheckColumn},
			{"no binary line, -c 0", unchecked(bare), path, byName},
			{"no binary line, -c 0, plain name", unchecked(bare), "run.log", FromGuess},
		} {
			l, err := read(strings.NewReader(c.text), c.name, Options{})
			if err != nil {
				t.Fatalf("%s (%s): %v", path, c.what, err)
			}
			if len(l.Tests) != len(named.Tests) {
				t.Fatalf("%s (%s): %d tests, want %d", path, c.what, len(l.Tests), len(named.Tests))
			}
			guesses := 0
			for i, want := range named.Tests {
				got := l.Tests[i]
				if want.Op != "alltoall" {
					if got.Collective == commmodel.AllToAll {
						t.Errorf("%s (%s): test %d (%s) read as alltoall (%v)", path, c.what, i, want.Op, got.CollectiveFrom)
					}
					continue
				}
				from, coll := c.from, commmodel.AllToAll
				if from == FromGuess {
					coll = commmodel.AllGather // the first of the candidates
				}
				if got.Collective != coll || got.CollectiveFrom != from || got.Ranks != want.Ranks {
					t.Errorf("%s (%s): test %d: %s (%v) over %d ranks, candidates %v; want %s (%v) over %d",
						path, c.what, i, got.Collective, got.CollectiveFrom, got.Ranks, got.Candidates, coll, from, want.Ranks)
				}
				if from == FromGuess {
					guesses++
				}
			}
			ambiguous := 0
			for _, p := range l.Problems {
				if errors.Is(p, ErrAmbiguous) {
					ambiguous++
					if !strings.Contains(p.Error(), "-collective") || !strings.Contains(p.Error(), "allgather and alltoall") {
						t.Errorf("%s (%s): %v; want the candidates and -collective named", path, c.what, p)
					}
				}
			}
			if ambiguous != guesses {
				t.Errorf("%s (%s): %d ErrAmbiguous warnings for %d guessed tests", path, c.what, ambiguous, guesses)
			}
		}
	}
}

// An AllGather table prints a count in its in-place #wrong column (DeepEP
// #303's H20 log, whose file name names both collectives): the column tells
// it from AllToAll. With -c 0 the name, naming both, does not tell.
func TestAllGatherCheckColumn(t *testing.T) {
	const path = "../logs/h20_1x8_alltoall_or_allgather_deepep303.log"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what, text string
		from       Inference
	}{
		{"as posted", string(b), FromCheckColumn},
		{"-c 0", unchecked(string(b)), FromGuess},
	} {
		l, err := read(strings.NewReader(c.text), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tt := l.Tests[0]; tt.Collective != commmodel.AllGather || tt.CollectiveFrom != c.from {
			t.Errorf("%s: %v (%v), want allgather (%v)", c.what, tt.Collective, tt.CollectiveFrom, c.from)
		}
	}
}

// namedCollective reads the collective a file's name names among the
// candidates, whatever the separators, and nothing from a name that names
// several or none.
func TestNamedCollective(t *testing.T) {
	both := []commmodel.Collective{commmodel.AllGather, commmodel.AllToAll}
	for _, c := range []struct {
		path  string
		cs    []commmodel.Collective
		want  commmodel.Collective
		named bool
	}{
		{"logs/h100_alltoall_2x8.log", both, commmodel.AllToAll, true},
		{`C:\logs\All-To-All.txt`, both, commmodel.AllToAll, true},
		{"all_gather_perf.out", both, commmodel.AllGather, true},
		{"allreduce_alltoall_1to32hosts.log", both, commmodel.AllToAll, true}, // allreduce is no candidate
		{"h20_1x8_alltoall_or_allgather_deepep303.log", both, 0, false},
		{"alltoall/run.log", both, 0, false}, // the directory is not the file's name
		{"bcast.log", []commmodel.Collective{commmodel.Broadcast}, commmodel.Broadcast, true},
		{"broadcast.log", []commmodel.Collective{commmodel.Broadcast}, commmodel.Broadcast, true},
		{"run.log", both, 0, false},
	} {
		got, ok := namedCollective(c.path, c.cs)
		if ok != c.named || ok && got != c.want {
			t.Errorf("%s: %v %v, want %v %v", c.path, got, ok, c.want, c.named)
		}
	}
}

// A comment or command line that names another binary than the one whose
// table follows (a shell history, a wrapper's echo, a note of an earlier
// run) yields to the table: the collective is read from the table's redop
// and busbw/algbw, with an ErrInconsistent warning at that line naming
// FILE:collective= (or, for a binary commlab does not model, gather_perf,
// that it does not). The line that names the right binary is still read
// (FromName), without a warning.
func TestMentionContradictedByTable(t *testing.T) {
	for _, c := range []struct {
		path        string
		other, mine string // a binary whose table the file's is not, and its own
		want        commmodel.Collective
	}{
		// Rank lines of 16 ranks; busbw/algbw 2·15/16 (all_reduce.cu).
		{"testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", "alltoall_perf", "all_reduce_perf", commmodel.AllReduce},
		// alltoall.cu's (n-1)/n and redop none, which all_reduce's
		// reduction and factor do not fit.
		{"testdata/real/rtx6000d_2x8_alltoall_late2025.log", "all_reduce_perf", "alltoall_perf", commmodel.AllToAll},
	} {
		b, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		bare := withoutBinary(string(b))
		for _, bin := range []string{c.other, c.mine, "gather_perf"} {
			text := "# ran " + bin + " earlier; this is the next job\n" + bare
			l, err := read(strings.NewReader(text), "run.log", Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.path, err)
			}
			got := l.Tests[0]
			var warned []string
			for _, p := range l.Problems {
				if errors.Is(p, ErrInconsistent) && strings.Contains(p.Error(), "names "+bin) {
					warned = append(warned, p.Error())
				}
			}
			switch {
			case got.Collective != c.want:
				t.Errorf("%s, a line naming %s: read as %v (%v), want %v", c.path, bin, got.Collective, got.CollectiveFrom, c.want)
			case bin == c.mine && (got.CollectiveFrom != FromName || len(warned) > 0):
				t.Errorf("%s, a line naming its own %s: %v, %q; want it read from the name, no warning", c.path, bin, got.CollectiveFrom, warned)
			case bin != c.mine && (got.CollectiveFrom == FromName || len(warned) != 1 || !strings.HasPrefix(warned[0], "run.log:1:")):
				t.Errorf("%s, a line naming %s: %v, %q; want the table's reading and one warning at line 1", c.path, bin, got.CollectiveFrom, warned)
			case bin == c.other && !strings.Contains(warned[0], "FILE:collective="+map[string]string{"alltoall_perf": "alltoall", "all_reduce_perf": "allreduce"}[bin]+" "):
				t.Errorf("%s, a line naming %s: %q; want the FILE:collective= that takes its collective", c.path, bin, warned[0])
			case bin == "gather_perf" && (strings.Contains(warned[0], "FILE:collective=") || !strings.Contains(warned[0], "which commlab does not model")):
				// predict takes no collective=gather: the hint is no key.
				t.Errorf("%s, a line naming %s: %q; want no FILE:collective=, and the binary named as one commlab does not model", c.path, bin, warned[0])
			}
		}
	}
}
