package heldout_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
)

// TestPublicBeyondNodes scores the public machines as a user who ran one
// and two nodes and predicts more: each machine with tables of at most two
// nodes and tables of more is calibrated on the former alone, as a new
// user has them (heldout.AsNewUser), and predicts each of the latter. No
// table of more nodes is in a calibration, nor in the refits behind its
// interval. The table is written to testdata/public_beyond.md. Under
// -short it scores the machines of four tables or fewer and checks their
// rows: the four of five and six tables take most of its time.
func TestPublicBeyondNodes(t *testing.T) {
	parallelUnlessUpdate(t)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | held-out table | nodes x GPUs | from tables of | error | in 80% interval | width high/low, median |")
	fmt.Fprintln(&b, "|---|---|---:|---|---:|---:|---:|")
	var all []heldout.Score
	for _, m := range publicMachines {
		tabs := m.tables(t)
		if testing.Short() && len(tabs) > 4 {
			continue
		}
		var few, more []predict.Table
		for _, tab := range tabs {
			if tab.Nodes <= 2 {
				few = append(few, tab)
			} else {
				more = append(more, tab)
			}
		}
		if len(few) == 0 || len(more) == 0 {
			continue
		}
		scores, err := heldout.AsNewUser(few, more)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		shapes := map[string]bool{}
		var from string
		for _, tab := range few {
			if s := fmt.Sprintf("%d x %d", tab.Nodes, tab.PerNode); !shapes[s] {
				if from != "" {
					from += ", "
				}
				from, shapes[s] = from+s, true
			}
		}
		for i, s := range scores {
			w50, _ := widths([]heldout.Score{s})
			fmt.Fprintf(&b, "| %s | %s | %d x %d | %s | %s | %d/%d | %.2fx |\n", m.name, strings.TrimPrefix(s.Table, m.name+"/"),
				more[i].Nodes, more[i].PerNode, from, pct(s.Model.All), s.Inside, s.Points, w50)
		}
		all = append(all, scores...)
	}
	if testing.Short() {
		goldenRows(t, "public_beyond.md", b.Bytes())
		return
	}
	within, better := targets(all)
	w50, w90 := widths(all)
	fmt.Fprintf(&b, "| all | %d tables | | | %d within 15%% (%d better than one-link) | %s | %.2fx (p90 %.2fx) |\n",
		len(all), within, better, pct(heldout.Coverage(all)), w50, w90)
	if len(all) < 20 {
		t.Errorf("%d tables beyond the calibration's nodes; the public machines hold 25", len(all))
	}
	golden(t, "public_beyond.md", b.Bytes())
}
