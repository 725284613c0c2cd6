package predict_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
)

// pairedMachine returns the named machine of the paired logs.
func pairedMachine(b testing.TB, name string) heldout.PairedMachine {
	b.Helper()
	ms, err := heldout.PairedMachines()
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		if m.Name == name {
			return m
		}
	}
	b.Fatalf("no machine %s", name)
	return heldout.PairedMachine{}
}

// sweepTables returns n tables of the cluster01 machine of the paired logs
// (36 tables of AllReduce, AllGather, ReduceScatter, AllToAll and SendRecv
// on 1 to 10 nodes of 1 to 8 GPUs, 318 points): its first n for n <= 36. No
// machine of the repository has 100 tables, so beyond 36 the machine's
// tables repeat,
// each repeat under its own name and with its times scaled by 1 + 2% per
// repeat (1.02, 1.04, 1.06), as a second sweep of the same cluster on
// another day would differ: the repeats are not real measurements, and the
// 100 tables stand for a sweep's size, not its contents.
func sweepTables(b *testing.B, n int) (predict.Hardware, []predict.Table) {
	m := pairedMachine(b, "h100-sxm-10node-cluster01")
	var out []predict.Table
	for rep := 0; len(out) < n; rep++ {
		for _, t := range m.Tables {
			if len(out) == n {
				break
			}
			if rep > 0 {
				t.Name = fmt.Sprintf("%s (repeat %d)", t.Name, rep)
				scale := 1 + 0.02*float64(rep)
				pts := make([]predict.Point, len(t.Points))
				for i, p := range t.Points {
					pts[i] = predict.Point{Size: p.Size, Time: p.Time * scale}
				}
				t.Points = pts
			}
			out = append(out, t)
		}
	}
	return m.Hardware, out
}

// fineSweep returns a table of n sizes spread evenly in log between the
// first and last sizes of the together machine's Ring AllReduce table (31
// sizes from 8 B), its times interpolated in log between the measured ones:
// a sweep as fine as nccl-tests -f 1.001 would run, whose size, not its
// contents, the benchmark stands for.
func fineSweep(b *testing.B, n int) (predict.Hardware, predict.Table) {
	m := pairedMachine(b, "h100-sxm-1x8-together")
	t := m.Tables[0]
	pts := t.Points
	lo, hi := math.Log(pts[0].Size), math.Log(pts[len(pts)-1].Size)
	fine := make([]predict.Point, n)
	j := 0
	for i := range fine {
		x := lo + (hi-lo)*float64(i)/float64(n-1)
		for j+2 < len(pts) && math.Log(pts[j+1].Size) < x {
			j++
		}
		x0, x1 := math.Log(pts[j].Size), math.Log(pts[j+1].Size)
		f := (x - x0) / (x1 - x0)
		time := math.Exp((1-f)*math.Log(pts[j].Time) + f*math.Log(pts[j+1].Time))
		fine[i] = predict.Point{Size: math.Round(math.Exp(x)), Time: time}
	}
	t.Name, t.Points = t.Name+fmt.Sprintf(" (%d sizes)", n), fine
	return m.Hardware, t
}

// BenchmarkCalibrate calibrates on 1, 9, 27 and 100 tables of one machine
// (sweepTables), with the leave-one-table-out refits behind the interval;
// "rows=20000" is one table of a fine sweep (fineSweep); "nointervals" is
// the 27 tables' fit alone. Calibration is linear in the
// tables: each of the n refits starts from the full fit and costs about a
// fit of one table's points over n−1 tables.
func BenchmarkCalibrate(b *testing.B) {
	for _, n := range []int{1, 9, 27, 100} {
		h, tables := sweepTables(b, n)
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := predict.Calibrate(h, tables, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	h, fine := fineSweep(b, 20000)
	b.Run("rows=20000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := predict.Calibrate(h, []predict.Table{fine}, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	h, tables := sweepTables(b, 27)
	b.Run("tables=27/nointervals", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := predict.Calibrate(h, tables, &predict.Settings{NoIntervals: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFromTables takes what 36 and 100 tables of one machine
// (sweepTables) say of it, as commlab predict does before it calibrates
// (Hardware.FromTables, for runs of 8 GPUs a node), from the GPU's name
// alone as a new user gives it (DefaultHardware, its NICs assumed): their
// debug lines and hosts, and the NICs and fabric the held-out fits choose
// (FitNICs, FitSwitches), whose refits make it grow faster than the
// tables.
func BenchmarkFromTables(b *testing.B) {
	for _, n := range []int{36, 100} {
		_, tables := sweepTables(b, n)
		h, err := predict.DefaultHardware(tables[0].GPU)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h.FromTables(tables, 8)
			}
		})
	}
}

// BenchmarkPredict predicts AllReduce on 2 x 8 at 16 sizes from the
// calibrated cluster01 machine: one query, its tuner choices and interval.
func BenchmarkPredict(b *testing.B) {
	pm := pairedMachine(b, "h100-sxm-10node-cluster01")
	m, err := predict.Calibrate(pm.Hardware, pm.Tables, nil)
	if err != nil {
		b.Fatal(err)
	}
	sizes := commmodel.LogSizes(1<<10, 1<<40, 16)
	q := predict.Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	if _, err := m.Predict(q, sizes); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Predict(q, sizes); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiagnose diagnoses together's pinned-Ring AllGather sweep (27
// sizes) against the machine calibrated on its other six tables: commlab
// diagnose after its calibration.
func BenchmarkDiagnose(b *testing.B) {
	pm := pairedMachine(b, "h100-sxm-1x8-together")
	var held predict.Table
	var rest []predict.Table
	for _, t := range pm.Tables {
		if t.Name == "h100-sxm-1x8-together/all_gather_ring.log#0" {
			held = t
		} else {
			rest = append(rest, t)
		}
	}
	if held.Name == "" {
		b.Fatal("no all_gather_ring.log#0")
	}
	m, err := predict.Calibrate(pm.Hardware, rest, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := m.Diagnose(held); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTune returns the tuner rules of the communicators of 1 to 16
// nodes of 8 GPUs, the model's choices for AllReduce, AllGather and
// ReduceScatter at the powers of two from 1 KiB to 4 GiB (commlab tune's
// default sizes), from the machine calibrated on cluster01's 36 tables:
// commlab tune after its calibration.
func BenchmarkTune(b *testing.B) {
	pm := pairedMachine(b, "h100-sxm-10node-cluster01")
	m, err := predict.Calibrate(pm.Hardware, pm.Tables, nil)
	if err != nil {
		b.Fatal(err)
	}
	var sizes []float64
	for s := 1 << 10; s <= 1<<32; s *= 2 {
		sizes = append(sizes, float64(s))
	}
	collectives := []commmodel.Collective{commmodel.AllReduce, commmodel.AllGather, commmodel.ReduceScatter}
	var comms []predict.Comm
	for _, n := range []int{1, 2, 4, 8, 16} {
		comms = append(comms, predict.Comm{Nodes: n, PerNode: 8})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.TunerRules(collectives, comms, predict.Layout{}, sizes); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTunePlaced returns the tuner rules of a GB200 job's
// communicators on NVL72 racks (tensor-parallel groups of a host's 4 GPUs,
// data-parallel groups of 1 and 2 GPUs of 36 to 144 hosts, and the racks'
// worlds), each of which could be placed across more racks than it needs,
// and what their rules cost such placements at worst: commlab tune's rules
// of any nNodes (leastWorst over up to 32 counts of racks) and its
// PlacedWorst line, uncalibrated.
func BenchmarkTunePlaced(b *testing.B) {
	h, err := predict.DefaultHardware("NVIDIA GB200")
	if err != nil {
		b.Fatal(err)
	}
	m := predict.Uncalibrated(h)
	var comms []predict.Comm
	for _, c := range [][2]int{{1, 4}, {18, 4}, {36, 4}, {72, 4}, {144, 4}, {36, 1}, {72, 1}, {144, 1}, {36, 2}, {72, 2}, {9, 4}, {18, 2}} {
		comms = append(comms, predict.Comm{Nodes: c[0], PerNode: c[1]})
	}
	b.ReportAllocs()
	for b.Loop() {
		rules, err := m.TunerRules(nil, comms, predict.Layout{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := m.PlacedWorst(comms, rules); err != nil {
			b.Fatal(err)
		}
	}
}
