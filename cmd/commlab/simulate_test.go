package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestSimulateContract is the simulator's acceptance check: for every AllReduce,
// AllToAll and SendRecv algorithm and P in {2, 3, 5, 6, 8, 12, 16} at S = 960000 B, the
// executed schedule is correct and its steps and busiest rank's bytes are the
// model's (the simulate contract in docs/design.md). -short runs P in {2, 3,
// 5, 8} at 96000 B; commmodel/schedule holds the schedules to the model at every P.
func TestSimulateContract(t *testing.T) {
	t.Parallel()
	ps := []string{"2", "3", "5", "6", "8", "12", "16"}
	size := "960000"
	if testing.Short() {
		// Under the race detector every byte costs: a tenth of the bytes,
		// still a whole number of elements per chunk at each P.
		ps, size = []string{"2", "3", "5", "8"}, "96000"
	}
	for _, c := range []commmodel.Collective{commmodel.AllReduce, commmodel.AllToAll, commmodel.SendRecv} {
		for _, algo := range commmodel.Names(c) {
			for _, p := range ps {
				var out, errOut bytes.Buffer
				args := []string{"simulate", "-collective", c.String(), "-algo", algo, "-p", p, "-size", size, "-json"}
				if code := run(args, &out, &errOut); code != 0 {
					t.Errorf("%v: exit %d: %s", args, code, errOut.String())
					continue
				}
				var r map[string]any
				if err := json.Unmarshal(out.Bytes(), &r); err != nil {
					t.Fatalf("%v: %v\n%s", args, err, out.String())
				}
				for _, f := range []string{"algorithm", "p", "size_bytes", "steps", "max_bytes_sent_per_rank",
					"max_peers", "correct", "model_steps", "model_bytes_per_rank"} {
					if _, ok := r[f]; !ok {
						t.Errorf("%v: no field %q", args, f)
					}
				}
				if r["correct"] != true || r["steps"] != r["model_steps"] ||
					r["max_bytes_sent_per_rank"] != r["model_bytes_per_rank"] || fmt.Sprint(r["size_bytes"]) != size {
					t.Errorf("%s %s P=%s: %s", c, algo, p, out.String())
				}
			}
		}
	}
}

// TestSimulateTable: without -json the result is a readable table.
func TestSimulateTable(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := run([]string{"simulate", "-algo", "ring", "-p", "8", "-size", "1MiB"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"allreduce ring, P = 8", "correct = true", "steps", "14"} { // the article: 14 steps at P = 8
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestSimulateTwoLevel: -per-node times the replay on NVLink inside a node and
// the network between nodes; the flat ring is then much slower than the
// hierarchical AllReduce.
func TestSimulateTwoLevel(t *testing.T) {
	t.Parallel()
	size := "16MiB"
	if testing.Short() {
		size = "1MiB" // the same steps, a sixteenth of the bytes
	}
	timeOf := func(algo string) float64 {
		var out, errOut bytes.Buffer
		args := []string{"simulate", "-algo", algo, "-p", "16", "-per-node", "8", "-size", size, "-json"}
		if code := run(args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		var r struct {
			Correct    bool    `json:"correct"`
			ReplayTime float64 `json:"replay_time_s"`
			ModelTime  float64 `json:"model_time_s"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if !r.Correct || r.ReplayTime <= 0 {
			t.Errorf("%s: %s", algo, out.String())
		}
		return r.ReplayTime
	}
	if flat, hier := timeOf("ring"), timeOf("hierarchical"); !(hier < flat/4) {
		t.Errorf("2x8, %s: hierarchical %.3g s, flat ring %.3g s", size, hier, flat)
	}
}

// TestSimulateSendRecv: the shift of nccl-tests' sendrecv_perf is one
// step in which every rank sends its S bytes to the next and receives from
// the previous (2 peers at P = 16). On 2 x 8 the step lasts as long as the
// sends from GPU 7 of each node to GPU 0 of the other, over the network:
//
//	T = α_inter + S/BW_inter
//
// with the article's H20 network link (presets.H20Inter), and the replay
// of the schedule gives what the model does; on one link, the NVLink's.
func TestSimulateSendRecv(t *testing.T) {
	t.Parallel()
	const size = 1 << 20
	for _, c := range []struct {
		flags []string
		link  commmodel.Link
	}{
		{[]string{"-algo", "shift", "-per-node", "8"}, presets.H20Inter},
		{[]string{"-algo", "shift"}, presets.H20Intra},
		{[]string{"-per-node", "8"}, presets.H20Inter}, // shift, SendRecv's only algorithm, without -algo
	} {
		var out, errOut bytes.Buffer
		args := append([]string{"simulate", "-collective", "sendrecv", "-p", "16", "-size", "1MiB", "-json"}, c.flags...)
		if code := run(args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		var r simulateResult
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		want := c.link.Alpha + size/c.link.BW
		if !r.Correct || r.Steps != 1 || r.ModelSteps != 1 || r.MaxBytesSent != size || r.ModelBytes != size ||
			r.MaxPeers != 2 || r.ModelPeers != 2 || r.Fanout != 1 || r.Incast != 1 ||
			!scalar.EqualWithinRel(r.ReplayTime, want, 1e-12) || !scalar.EqualWithinRel(r.ModelTime, want, 1e-12) {
			t.Errorf("%v: want correct, 1 step of %d B to 1 of 2 peers in %.6g s:\n%s", args, size, want, out.String())
		}
	}
}

// TestSimulateRefuses: bad requests exit non-zero with a message naming the
// problem, and a simulation too large for memory is refused before it starts
// (an AllToAll holds every rank's whole buffers: 1024 ranks of 1 GiB, in
// uint16, are 512 GiB; a ring of that size runs by tiles, in megabytes).
func TestSimulateRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-collective", "alltoall", "-algo", "pairwise", "-p", "1024", "-size", "1GiB"}, "memory"},
		{[]string{"-algo", "one-shot", "-p", "64", "-size", "16MiB", "-max-mem", "1e9"}, "memory"},
		{[]string{"-algo", "bogus", "-p", "8", "-size", "1MB"}, "bogus"},
		{[]string{"-algo", "ring", "-p", "0", "-size", "1MB"}, "-p"},
		{[]string{"-algo", "ring", "-p", "8", "-size", "12XB"}, "unit"},
		{[]string{"-algo", "ring", "-p", "8", "-size", "1001"}, "element"},
		{[]string{"-algo", "ring", "-p", "8"}, "-size"},
		{[]string{"-p", "8", "-size", "1MB"}, "-algo"},
		{[]string{"-algo", "hierarchical", "-p", "12", "-per-node", "8", "-size", "1MB"}, "per-node"},
		{[]string{"-collective", "alltoall", "-algo", "ring", "-p", "8", "-size", "1MB"}, "ring"},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		code := run(append([]string{"simulate"}, c.args...), &out, &errOut)
		if code == 0 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want non-zero and %q", c.args, code, errOut.String(), c.want)
		}
	}
	// -size and -elem that disagree are a usage error, 2, with the sizes
	// that hold whole elements (a red team: exit 1).
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-algo", "ring", "-p", "5", "-size", "6"}, "give -size 4 or 8"},
		{[]string{"-algo", "ring", "-p", "5", "-size", "2"}, "give -size 4"},
		{[]string{"-algo", "ring", "-p", "5", "-size", "64", "-elem", "3"}, "give -size 63 or 66"},
	} {
		var out, errOut bytes.Buffer
		if code := run(append([]string{"simulate"}, c.args...), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
}

// TestSimulateNamesEnoughMemory: a refusal names a -max-mem value, and the
// same request with that value runs (64 ranks of 1 MiB are 2^24 elements,
// which Simulate runs by tiles: about 18 MB of tiles and schedule,
// schedule.Footprint).
func TestSimulateNamesEnoughMemory(t *testing.T) {
	t.Parallel()
	args := []string{"simulate", "-algo", "ring", "-p", "64", "-size", "1MiB", "-max-mem", "1e6"}
	var out, errOut bytes.Buffer
	if code := run(args, &out, &errOut); code == 0 {
		t.Fatalf("%v: accepted under 1 MB", args)
	}
	_, value, ok := strings.Cut(errOut.String(), "or -max-mem ")
	value, _, _ = strings.Cut(value, " ")
	if !ok || value == "" {
		t.Fatalf("refusal names no -max-mem value: %s", errOut.String())
	}
	args[len(args)-1] = value
	out.Reset()
	errOut.Reset()
	if code := run(append(args, "-json"), &out, &errOut); code != 0 || !strings.Contains(out.String(), `"correct": true`) {
		t.Errorf("%v: exit %d, %s%s", args, code, errOut.String(), out.String())
	}
}

// TestEnoughMem: the named value reads as a -max-mem size, at least what is
// needed and less than 10% more (two significant digits, rounded up).
func TestEnoughMem(t *testing.T) {
	t.Parallel()
	for _, need := range []float64{1, 999, 4496097280, 4.5e9, 67108864 + 774144, 1.1e12, 1.23456789e15} {
		got, err := units.ParseSize(enoughMem(need))
		if err != nil || float64(got) < need || float64(got) > 1.1*need {
			t.Errorf("enoughMem(%g) = %q (%v)", need, enoughMem(need), err)
		}
	}
}

// TestMemTotal reads MemTotal from /proc/meminfo's form (the line of a
// 24 GiB machine: 24684084 kB = 25276502016 B) and refuses files without it.
func TestMemTotal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", "MemFree:        24071972 kB\nMemTotal:       24684084 kB\nMemAvailable:   24329432 kB\n")
	if got, err := memTotal(good); err != nil || got != 25276502016 {
		t.Errorf("memTotal = %g, %v; want 25276502016", got, err)
	}
	for name, text := range map[string]string{
		"none":  "MemFree:        24071972 kB\n",
		"zero":  "MemTotal:       0 kB\n",
		"words": "MemTotal:       lots kB\n",
		"pages": "MemTotal:       24684084 pages\n",
	} {
		if got, err := memTotal(write(name, text)); err == nil {
			t.Errorf("%s: memTotal = %g, want an error", name, got)
		}
	}
	if _, err := memTotal(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file: no error")
	}
}

// TestSimulateWholeNumbers: the model's byte counts print as whole numbers
// beside the simulation's (ring AllReduce of 1 MiB on 8 ranks sends
// 2·7/8 MiB = 1835008 B from each rank), not as 1.83501e+06.
func TestSimulateWholeNumbers(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("simulate", "-collective", "allreduce", "-algo", "ring", "-p", "8", "-size", "1MiB")
	if code != 0 || !strings.Contains(out, "1835008  1835008") || strings.Contains(out, "e+06") {
		t.Errorf("exit %d (%s):\n%s", code, stderr, out)
	}
}

// TestSimulateOwnLinks replays hierarchical AllReduce of 1 MiB on 2 nodes
// of 8 joined by links given on the command line: the replay's time is the
// model's, and both are what model prints for the same cluster.
func TestSimulateOwnLinks(t *testing.T) {
	t.Parallel()
	links := []string{"-intra", "2us,350GB/s", "-inter", "15us,50GB/s"}
	code, out, stderr := runCLI(append([]string{"simulate", "-collective", "allreduce", "-algo", "hierarchical", "-p", "16", "-per-node", "8",
		"-size", "1MiB", "-json"}, links...)...)
	var sim struct {
		Links  string  `json:"links"`
		Replay float64 `json:"replay_time_s"`
		Model  float64 `json:"model_time_s"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &sim) != nil {
		t.Fatalf("exit %d: %s %s", code, stderr, out)
	}
	code, out, _ = runCLI(append([]string{"model", "-algo", "hierarchical", "-p", "16", "-per-node", "8", "-size", "1MiB", "-json"}, links...)...)
	var mod struct {
		Rows []struct {
			TimeS float64 `json:"time_s"`
		} `json:"rows"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &mod) != nil || len(mod.Rows) != 1 {
		t.Fatalf("model: exit %d: %s", code, out)
	}
	if sim.Model != mod.Rows[0].TimeS || !scalar.EqualWithinAbs(sim.Replay, sim.Model, 1e-9*sim.Model) || !strings.Contains(sim.Links, "-inter 15us,50GB/s") {
		t.Errorf("simulate %+v, model %g s", sim, mod.Rows[0].TimeS)
	}
}

// TestSimulateSaysLong: a simulation that copies over longElements says so
// on stderr before it starts, with a -size that holds the same schedule to
// the model sooner (allreduce ring on 4096 ranks of 1 GiB, 2.2e12
// elements, ran for hours without a word); one of fewer says nothing. A
// request refused before anything runs says only why: 32768 ranks are more
// than schedule.MaxScheduleBytes admits (schedule.Footprint refuses them as
// NewElem does), and a smaller -size would not change that.
func TestSimulateSaysLong(t *testing.T) {
	t.Parallel()
	req, err := parseSimulateFlags([]string{"-collective", "allreduce", "-algo", "ring", "-p", "4096", "-size", "1GiB"})
	if err != nil {
		t.Fatal(err)
	}
	want := "allreduce ring on 4096 ranks of 1 GiB copies about 2.2e+12 elements between ranks (minutes at 1e11, hours at 1e12); " +
		"its steps and messages do not grow with -size, so -size 256 KiB holds the same schedule to the model sooner"
	if got := longSimulation(req); got != want {
		t.Errorf("longSimulation: %q; want %q", got, want)
	}
	if req.size = 256 << 10; longSimulation(req) != "" {
		t.Errorf("longSimulation of 256 KiB: %q; want nothing", longSimulation(req))
	}
	code, stdout, stderr := runCLI("simulate", "-algo", "ring", "-p", "32768", "-size", "1GiB", "-max-mem", "1e15")
	if code != 1 || stdout != "" || strings.Contains(stderr, "copies about") ||
		!strings.Contains(stderr, "MaxScheduleBytes") || !strings.Contains(stderr, "4096 ranks are within it") {
		t.Errorf("32768 ranks: exit %d, stdout %q, stderr %q; want exit 1 and the refusal alone", code, stdout, stderr)
	}
	if code, _, stderr := runCLI("simulate", "-algo", "ring", "-p", "8", "-size", "1MiB"); code != 0 || stderr != "" {
		t.Errorf("8 ranks of 1 MiB: exit %d, stderr %q; want 0 and no note", code, stderr)
	}
}
