package article

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/inframethod/commlab/commmodel/predict/heldout"
)

// pairedMachines are the paired machines, read once for the package's tests.
var pairedMachines = sync.OnceValues(heldout.PairedMachines)

// testPaired returns the paired machines named, read once.
func testPaired(t *testing.T, names ...string) []heldout.PairedMachine {
	t.Helper()
	ms, err := pairedMachines()
	if err != nil {
		t.Fatal(err)
	}
	var out []heldout.PairedMachine
	for _, name := range names {
		m, err := pairedMachine(ms, name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// testInputs are the article's inputs. Under -short, notebook 03 executes
// the schedules on 2 x 8 GPUs at 1 MiB (TestExecutedTable's run) instead
// of 16 x 8 at ExecutedSize, and notebook 07 scores Together's 1 x 8 H100
// (shortMachine) instead of all eight paired machines.
func testInputs() inputs {
	in := articleInputs()
	if testing.Short() {
		in.executed, in.executedSize = in.cluster(2), 1<<20
		in.scored = []string{shortMachine}
	}
	return in
}

// shortMachine is the paired machine the -short tests of notebook 07 score:
// Together's, whose seven tables are the quickest to score of the machines
// the notebook's examples are drawn from (OneTableExample.Machine).
const shortMachine = "h100-sxm-1x8-together"

// checkExhibits builds a notebook's exhibits and renders its figures.
func checkExhibits(t *testing.T, notebook string, n int) {
	t.Helper()
	ex, err := notebookExhibits(notebook)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) != n {
		t.Fatalf("%d exhibits, want %d", len(ex), n)
	}
	for _, e := range ex {
		if !strings.HasPrefix(e.Name, notebook[:2]+"-") || (e.Table == nil) == (e.Figure == nil) {
			t.Errorf("exhibit %q", e.Name)
		}
		if e.Figure != nil {
			if _, err := e.Figure.PNG(); err != nil {
				t.Errorf("%s: %v", e.Name, err)
			}
		}
	}
}

// notebookExhibits builds one notebook's exhibits with testInputs.
func notebookExhibits(notebook string) ([]Exhibit, error) {
	for _, nb := range notebooks {
		if nb.name == notebook {
			return nb.build(testInputs())
		}
	}
	return nil, fmt.Errorf("no notebook %s", notebook)
}
