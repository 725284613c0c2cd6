package predict

import (
	"math"
	"os"
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/data/nccltests"
)

// floorRows are the out-of-place times, s, of the rows from lo to hi bytes
// of test i of a public log, whose layout must be GPUs per thread without
// CUDA graphs: the rows where the host's launches, not the GPUs' work, set
// a call's time.
type floorRows struct {
	file   string
	test   int
	gpus   int
	lo, hi int64
}

// times reads r's rows.
func (r floorRows) times(t *testing.T) []float64 {
	t.Helper()
	f, err := os.Open(realDir + r.file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := nccltests.NewReader(f)
	for i := 0; ; i++ {
		tt, err := rd.Read()
		if err != nil {
			t.Fatalf("%s: test %d: %v", r.file, r.test, err)
		}
		if i < r.test {
			continue
		}
		if l := layoutOf(tt); l.norm().GPUsPerThread != r.gpus || l.Graphs != 0 {
			t.Fatalf("%s#%d: layout %+v, want %d GPUs a thread and no graphs", r.file, r.test, l, r.gpus)
		}
		var out []float64
		for _, row := range tt.Rows {
			if row.Size >= r.lo && row.Size <= r.hi && row.OutOfPlace.OK() {
				out = append(out, row.OutOfPlace.Time)
			}
		}
		if len(out) == 0 {
			t.Fatalf("%s#%d: no rows from %d to %d B", r.file, r.test, r.lo, r.hi)
		}
		return out
	}
}

// medianFloor is the median time of every row of rows, which must all
// have the same GPUs per thread, and that count.
func medianFloor(t *testing.T, rows ...floorRows) (floor float64, gpus int) {
	t.Helper()
	var d []float64
	for _, r := range rows {
		if r.gpus != rows[0].gpus {
			t.Fatalf("%s: %d GPUs a thread among tables of %d", r.file, r.gpus, rows[0].gpus)
		}
		d = append(d, r.times(t)...)
	}
	slices.Sort(d)
	n := len(d)
	return (d[(n-1)/2] + d[n/2]) / 2, rows[0].gpus
}

// floorLine returns c0 and c1 of the launch floor c0 + c1·G through two
// layouts' floors.
func floorLine(t *testing.T, a, b []floorRows) (c0, c1 float64) {
	t.Helper()
	fa, ga := medianFloor(t, a...)
	fb, gb := medianFloor(t, b...)
	c1 = (fb - fa) / float64(gb-ga)
	return fa - c1*float64(ga), c1
}

// TestRCCLLaunchFloor measures RCCL's launch floor c0 + c1·G from the
// public AMD logs without CUDA graphs: its floor of one GPU a process is
// the median of the AllReduce rows of 1 to 64 KiB of ROCm's blog's MI300X
// and AMD AAC8's (14 rows, 13.09 to 15.47 us: the same blog's run with
// graphs takes 6.0 to 9.1 us there, so the host, not the kernel, sets
// them); of one process driving 8 GPUs (-g 8), the median of the rows up
// to 64 KiB of the Radeon host's and of the Azure MI300X VF's AllReduce (29
// rows, 39.67 to 56.85 us). c1 is launchPriorRCCL and c0/c1 is
// rcclLaunches, to two significant digits.
func TestRCCLLaunchFloor(t *testing.T) {
	one := []floorRows{
		{"mi300x_1x8_allreduce_rocmblogs.log", 0, 1, 1 << 10, 64 << 10},
		{"mi300x_1x8_2x8_allreduce_rccltests.log", 0, 1, 1 << 10, 64 << 10},
	}
	eight := []floorRows{
		{"radeon_1x8_g8_allreduce_aion.log", 0, 8, 0, 64 << 10},
		{"mi300x_vf_1x8_allreduce_rccl_issue1562.log", 0, 8, 0, 64 << 10},
	}
	c0, c1 := floorLine(t, one, eight)
	t.Logf("RCCL's launch floor: %.3g us + %.3g us a GPU (%.3g launches a call)", c0*1e6, c1*1e6, c0/c1)
	if got := twoDigits(c1); got != launchPriorRCCL {
		t.Errorf("c1 = %.4g s; launchPriorRCCL is %g", c1, launchPriorRCCL)
	}
	if got := twoDigits(c0 / c1); got != rcclLaunches {
		t.Errorf("c0/c1 = %.4g launches; rcclLaunches is %g", c0/c1, rcclLaunches)
	}
}

// TestNCCLLaunchFloor: NVIDIA's NCCL adds no launches of its own to a
// call (c0 = 0 in the model), as the public NVIDIA logs of one process
// driving several GPUs say, measured as TestRCCLLaunchFloor does: the
// Kalavai RTX 4090 host's AllReduce rows of 8 B to 1 KiB, -g 2 against -g 4
// (Docker and Kubernetes runs, 16 rows each), and the A100-SXM4s' of 8 B
// to 8 KiB at -g 4 (Stanage, AllReduce) against SuperBench's at -g 8
// (AllGather, 32 B to 32 KiB; two hosts and NCCL releases, so a looser
// check, whose c0 falls below zero). Each line's c0 is less than a quarter
// of a launch, where RCCL's is rcclLaunches.
func TestNCCLLaunchFloor(t *testing.T) {
	for _, c := range []struct {
		name   string
		lo, hi []floorRows
	}{
		{"RTX 4090, Kalavai", []floorRows{
			{"rtx4090_1x2_g2_allreduce_docker_kalavai.log", 0, 2, 0, 1 << 10},
			{"rtx4090_1x2_g2_allreduce_k8s_kalavai.log", 0, 2, 0, 1 << 10},
		}, []floorRows{
			{"rtx4090_1x4_g4_allreduce_docker_kalavai.log", 0, 4, 0, 1 << 10},
			{"rtx4090_1x4_g4_allreduce_k8s_kalavai.log", 0, 4, 0, 1 << 10},
		}},
		{"A100-SXM4, Stanage and SuperBench", []floorRows{
			{"a100_1x4_g4_allreduce_stanage.log", 0, 4, 0, 8 << 10},
		}, []floorRows{
			{"a100_1x8_g8_allgather_oldcolumns_superbench.log", 0, 8, 32, 32 << 10},
		}},
	} {
		c0, c1 := floorLine(t, c.lo, c.hi)
		t.Logf("%s: %.3g us + %.3g us a GPU (%.3g launches a call)", c.name, c0*1e6, c1*1e6, c0/c1)
		if c0/c1 > 0.25 {
			t.Errorf("%s: c0 = %.3g us, %.3g launches of %.3g us; want NVIDIA's NCCL to add under a quarter of one", c.name, c0*1e6, c0/c1, c1*1e6)
		}
	}
}

// TestRCCLFloorModel: an MI300X from its name alone (Uncalibrated, the
// model at its priors) has RCCL's floor, launchPriorRCCL·(G + rcclLaunches),
// within 5% of the logs' medians of TestRCCLLaunchFloor's rows at one GPU
// a process (13.67 us) and at -g 8 (45.99 us), where NVIDIA's, 3.1 us a
// GPU, is 3.1 and 24.8 us. At -g 8 the floor is the prediction (Untabled)
// of an AllReduce of 4 KiB, within 10% of 45.99 us; at -g 1 NCCL's latency
// of 8 ranks, 15 us at the priors, outlasts it. The Radeon host, whose GPU
// the catalog lacks, takes RCCL's prior from its logs' RCCL lines; an
// NVIDIA machine keeps launchPrior.
func TestRCCLFloorModel(t *testing.T) {
	measured := map[int]float64{}
	measured[1], _ = medianFloor(t, floorRows{"mi300x_1x8_allreduce_rocmblogs.log", 0, 1, 1 << 10, 64 << 10},
		floorRows{"mi300x_1x8_2x8_allreduce_rccltests.log", 0, 1, 1 << 10, 64 << 10})
	measured[8], _ = medianFloor(t, floorRows{"radeon_1x8_g8_allreduce_aion.log", 0, 8, 0, 64 << 10},
		floorRows{"mi300x_vf_1x8_allreduce_rccl_issue1562.log", 0, 8, 0, 64 << 10})
	hw, err := Describe("AMD Instinct MI300X", "")
	if err != nil {
		t.Fatal(err)
	}
	m := Uncalibrated(hw)
	for _, g := range []int{1, 8} {
		q := Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Layout: Layout{GPUsPerThread: g}}
		rn, err := m.run(q)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := m.refs.termOf(rn, 4<<10)
		if err != nil {
			t.Fatal(err)
		}
		if launch, _, _, _ := tm.parts(&m.x); math.Abs(launch/measured[g]-1) > 0.05 {
			t.Errorf("-g %d: floor %.4g us, want the logs' %.4g us within 5%%", g, launch*1e6, measured[g]*1e6)
		}
		if g == 1 {
			continue
		}
		ps, _, err := Untabled(hw, q, []float64{4 << 10})
		if err != nil {
			t.Fatal(err)
		}
		if p := ps[0]; math.Abs(p.Time/measured[g]-1) > 0.1 || p.Bound != TermLaunch {
			t.Errorf("-g %d at 4 KiB: %.4g us bound by %s; want %.4g us within 10%%, by the launch", g, p.Time*1e6, p.Bound, measured[g]*1e6)
		}
	}
	radeon, _ := radeonMachine(t)
	if got := radeon.Params[parLaunch].Prior; got != launchPriorRCCL {
		t.Errorf("Radeon host's launch prior %g s, want RCCL's %g", got, launchPriorRCCL)
	}
	if got := Uncalibrated(h100(t)).Params[parLaunch].Prior; got != launchPrior {
		t.Errorf("H100's launch prior %g s, want NVIDIA's %g", got, launchPrior)
	}
}

// twoDigits rounds v to two significant digits.
func twoDigits(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow(10, 1-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}
