package heldout_test

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
)

// The scale-out set: Together AI's B200 cluster "slinky", bus bandwidth at
// 32 GiB of AllReduce pinned to Ring, Tree and NVLS/NVLSTree and of Ring
// AllGather on 1 to 64 nodes of 8 GPUs (testdata/scaleout_b200_slinky.md
// names the report). The model calibrates on the one- and two-node values
// and predicts 4 to 64 nodes (512 GPUs).
const scaleOutFile = "scaleout_b200_slinky.md"

// scaleOutSize is the report's size, 32 GiB.
const scaleOutSize = 32 << 30

// A scaleOutPoint is one cell of the report: bus bandwidth in B/s.
type scaleOutPoint struct {
	collective commmodel.Collective
	algo       string // the column: ring, tree, or nvls (NVLS on one node, NVLSTree beyond)
	nodes      int
	busBW      float64
}

// readScaleOut reads the report's two tables: the rows "| Nn (G) | ..."
// under each "## Results" heading, the columns by the header's names.
func readScaleOut(t *testing.T) []scaleOutPoint {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", scaleOutFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	columns := map[commmodel.Collective]map[string]string{
		commmodel.AllReduce: {"Ring": "ring", "Tree": "tree", "NVLS / NVLSTree": "nvls"},
		commmodel.AllGather: {"Ring": "ring"},
	}
	var out []scaleOutPoint
	var c commmodel.Collective
	var header []string
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); {
		line++
		s := sc.Text()
		switch {
		case strings.HasPrefix(s, "## Results — all_reduce"):
			c, header = commmodel.AllReduce, nil
		case strings.HasPrefix(s, "## Results — all_gather"):
			c, header = commmodel.AllGather, nil
		case strings.HasPrefix(s, "| Nodes"):
			header = cells(s)
		case strings.HasPrefix(s, "| ") && header != nil:
			row := cells(s)
			nodes, err := strconv.Atoi(strings.TrimSuffix(strings.Fields(row[0])[0], "n"))
			if err != nil {
				t.Fatalf("%s:%d: %v", scaleOutFile, line, err)
			}
			for i, name := range header {
				algo, ok := columns[c][name]
				if !ok {
					continue
				}
				v, err := strconv.ParseFloat(strings.Trim(row[i], "*"), 64)
				if err != nil {
					t.Fatalf("%s:%d: %s: %v", scaleOutFile, line, name, err)
				}
				out = append(out, scaleOutPoint{c, algo, nodes, v * 1e9})
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// cells splits a Markdown table row into its trimmed cells.
func cells(row string) []string {
	parts := strings.Split(strings.Trim(row, "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// table is p as a one-point Table of the report's run: one process of 8
// GPUs per node, NCCL 2.28.9, the algorithm pinned.
func (p scaleOutPoint) table() predict.Table {
	algo := p.algo
	if algo == "nvls" && p.nodes > 1 {
		algo = "nvlstree"
	}
	size := float64(scaleOutSize)
	return predict.Table{Name: fmt.Sprintf("%v %s %dn", p.collective, algo, p.nodes), GPU: "NVIDIA B200", Collective: p.collective,
		Nodes: p.nodes, PerNode: 8, Layout: predict.Layout{ThreadsPerProcess: 1, GPUsPerThread: 8}, Algo: algo,
		Version: nccl.Version{Major: 2, Minor: 28, Patch: 9},
		Points:  []predict.Point{{Size: size, Time: size * p.collective.BusFactor(p.nodes*8) / p.busBW}}}
}

// TestPairedScaleOut calibrates on the report's one- and two-node values
// and predicts 4 to 64 nodes: every prediction within targetWithin (15%)
// of the measured bus bandwidth and inside its 80% interval. The hardware
// is the report's: 12 NDR 400 Gb/s HCAs per node (the model drives one per
// GPU).
func TestPairedScaleOut(t *testing.T) {
	pts := readScaleOut(t)
	if len(pts) != 28 {
		t.Fatalf("%d values, want 28 (7 node counts, 4 columns)", len(pts))
	}
	h, err := predict.DefaultHardware("NVIDIA B200")
	if err != nil {
		t.Fatal(err)
	}
	h.NICs, h.NICBW = 12, 50e9
	var cal []predict.Table
	for _, p := range pts {
		if p.nodes <= 2 {
			cal = append(cal, p.table())
		}
	}
	m, err := predict.Calibrate(h, cal, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := predict.Uncalibrated(h)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| collective | NCCL_ALGO | nodes (GPUs) | measured | model | error | in 80% interval | NCCL's | NCCL's error |")
	fmt.Fprintln(&b, "|---|---|---:|---:|---:|---:|---|---:|---:|")
	held, inside, within := 0, 0, 0
	for _, p := range pts {
		if p.nodes <= 2 {
			continue
		}
		tab := p.table()
		pred, err := m.Predict(tab.Query(), []float64{scaleOutSize})
		if err != nil {
			t.Fatal(err)
		}
		nc, err := ref.Predict(tab.Query(), []float64{scaleOutSize})
		if err != nil {
			t.Fatal(err)
		}
		bus := func(time float64) float64 { return scaleOutSize * p.collective.BusFactor(p.nodes*8) / time }
		e, ne := bus(pred[0].Time)/p.busBW-1, bus(nc[0].Time)/p.busBW-1
		in := pred[0].Holds(tab.Points[0].Time)
		held++
		if in {
			inside++
		}
		if math.Abs(e) <= targetWithin {
			within++
		} else {
			t.Errorf("%s: %.0f GB/s predicted against %.2f measured (%+.1f%%)", tab.Name, bus(pred[0].Time)/1e9, p.busBW/1e9, 100*e)
		}
		if !in {
			t.Errorf("%s: measured %.2f GB/s outside the 80%% interval [%.0f, %.0f]", tab.Name, p.busBW/1e9, bus(pred[0].High)/1e9, bus(pred[0].Low)/1e9)
		}
		mark := "no"
		if in {
			mark = "yes"
		}
		fmt.Fprintf(&b, "| %v | %s | %d (%d) | %.2f GB/s | %.0f GB/s | %+.1f%% | %s | %.0f GB/s | %+.1f%% |\n",
			p.collective, tab.Algo, p.nodes, 8*p.nodes, p.busBW/1e9, bus(pred[0].Time)/1e9, 100*e, mark, bus(nc[0].Time)/1e9, 100*ne)
	}
	fmt.Fprintf(&b, "\n%d of %d predictions within %.0f%%, %d inside their 80%% interval.\n", within, held, 100*targetWithin, inside)
	golden(t, "paired_scaleout.md", b.Bytes())
}
