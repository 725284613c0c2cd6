package predict

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
)

// TestPinsCheckShape: pins whose ranks, nodes and per-node disagree leave
// no table to take: nodes=1, per-node=8 and ranks=16 were read as 8 ranks
// of 1 x 8, ranks=16 dropped without a word (red team C). Each case's
// numbers are its own arithmetic: nodes x per-node against ranks.
func TestPinsCheckShape(t *testing.T) {
	for _, c := range []struct {
		pins Pins
		want string
	}{
		{Pins{Nodes: 1, PerNode: 8, Ranks: 16}, "nodes=1 and per-node=8 make 8 ranks, where ranks=16 is given"},
		{Pins{Nodes: 2, PerNode: 8, Ranks: 8}, "nodes=2 and per-node=8 make 16 ranks, where ranks=8 is given"},
		{Pins{PerNode: 8, Ranks: 12}, "ranks=12 are not a multiple of per-node=8"},
		{Pins{Nodes: 5, Ranks: 16}, "ranks=16 do not divide among nodes=5"},
		{Pins{Nodes: 2, PerNode: 8, Ranks: 16}, ""},
		{Pins{PerNode: 4, Ranks: 16}, ""},
		{Pins{Nodes: 3, PerNode: 8}, ""},
	} {
		err := c.pins.CheckShape()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v; want %q", c.pins, err, c.want)
		}
	}
	// A library caller's pins leave the table out, naming the test.
	b, err := os.ReadFile("../../data/nccltests/testdata/real/h100_2x8_allreduce_default_doca_nccltests319.log")
	if err != nil {
		t.Fatal(err)
	}
	tabs, problems, err := ReadBytes(b, "doca.log", func(int) Pins { return Pins{Nodes: 1, PerNode: 8, Ranks: 16} })
	var lo *LeftOutError
	if err != nil || len(tabs) != 0 || len(problems) == 0 || !errors.As(problems[len(problems)-1], &lo) ||
		!strings.Contains(problems[len(problems)-1].Error(), "where ranks=16 is given") {
		t.Errorf("ReadBytes under contradicting pins: %d tables, problems %v, %v; want the table left out, said", len(tabs), problems, err)
	}
	var pe *nccltests.ParseError
	if len(problems) > 0 && !errors.As(problems[len(problems)-1], &pe) {
		t.Errorf("problem %v: want the test's line", problems[len(problems)-1])
	}
}
