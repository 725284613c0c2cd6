package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDiagnoseFindingNumbersAfterBaseline: a finding that refers to another
// names it by its number in the whole list, the findings against a
// calibration table of the run's shape, which come first, counted. CSCS
// Alps' GH200 AllReduce of 2 x 4, calibrated on Alps' 2 x 1 and on Olivia's
// 2 x 4 (GH200 nodes of 4 on Slingshot too, a table of its shape), opens
// with four such findings; the departure at 512 KiB that the assumed NICs
// may explain refers to finding 5, which names them (a count that left out
// the first four would name finding 1, a baseline finding).
func TestDiagnoseFindingNumbersAfterBaseline(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	fs, _, _ := diagnoseJSON(t, dir+"gh200_2x4_allreduce_slingshot_alps.log",
		"-calibrate", dir+"gh200_2x1_allreduce_slingshot_alps_sarus.log,"+dir+"gh200_2x4_allreduce_slingshot_olivia.log")
	ref := regexp.MustCompile(`as for finding (\d+)`)
	baseline, refs := 0, 0
	for i, f := range fs {
		advice := fmt.Sprint(f["advice"])
		if strings.Contains(fmt.Sprint(f["kind"]), "calibration table of its shape") {
			baseline++
			// A faster run "ran" so many times as fast; it "took" so
			// many times as fast.
			if strings.Contains(advice, "took") && strings.Contains(advice, "as fast as") {
				t.Errorf("finding %d: %s", i+1, advice)
			}
		}
		for _, m := range ref.FindAllStringSubmatch(advice, -1) {
			refs++
			n, _ := strconv.Atoi(m[1])
			if n < 1 || n > len(fs) || n == i+1 {
				t.Fatalf("finding %d refers to finding %d of %d", i+1, n, len(fs))
			}
			if to := fmt.Sprint(fs[n-1]["advice"]); !strings.Contains(to, "the gap may be the guess") {
				t.Errorf("finding %d refers to finding %d, a %v finding; want the one that names the guesses", i+1, n, fs[n-1]["kind"])
			}
		}
	}
	if baseline == 0 || refs == 0 {
		t.Errorf("%d findings against a calibration table of its shape, %d references; want both (the case this test guards)", baseline, refs)
	}
}

// TestDiagnoseLatencyNoNICGuess: a SendRecv of 2 x 1 A40 (nccl-tests#214,
// 256 B..4 KiB) is 3.9 times the model's latency-bound time at 256 B..1
// KiB, against the model at its priors, which measures no ratio for the
// NICs. Their count and rate move bandwidth, not a 256 B call: the finding
// named them as the guess that may explain it, withheld the run's own
// advice, and asked for -hw nics=N and nic-bw=RATE, which would not move
// the prediction there.
func TestDiagnoseLatencyNoNICGuess(t *testing.T) {
	t.Parallel()
	fs, _, _ := diagnoseJSON(t, "../../data/nccltests/testdata/real/a40_2x1_sendrecv_nccltests214.log")
	if len(fs) == 0 {
		t.Fatal("no finding; want the latency-bound SendRecv slower than the model")
	}
	for i, f := range fs {
		advice := fmt.Sprint(f["advice"])
		if f["term"] != "latency" {
			continue
		}
		if f["assumed"] != nil || strings.Contains(advice, "nics=N") || strings.Contains(advice, "nic-bw=RATE") {
			t.Errorf("finding %d (%v, latency-bound) names the NICs' count or rate as its guess: %s", i+1, f["kind"], advice)
		}
		// Grouped sends take no algorithm: the advice does not ask after
		// NCCL_ALGO.
		if !strings.Contains(advice, "per-step latency of grouped sends") || strings.Contains(advice, "check that no NCCL_PROTO or NCCL_ALGO") {
			t.Errorf("finding %d: %s; want the latency advice of grouped sends", i+1, advice)
		}
	}
}

// TestDiagnoseSwitchChain: KISTI's 4 x 2 A100 AllReduce (nccl-tests#311)
// takes 1.47 ms at 1 MiB, 8.79 times its 167.6 us at 256 KiB for 4 times
// the bytes, and 403 us at 4 MiB: no one choice of NCCL's grows so, and the
// row is held up or ran alone on a far slower choice, a stall finding that
// no switch finding spans. At 586 us (3.5 times the 256 KiB row's, which one
// choice can take) the fall to 4 MiB is a switch where the model runs
// Ring/LL128 at both sizes, Ring/LL before and Ring/Simple after: the switch
// finding said "NCCL changes from Ring/LL to Ring/Simple", beside another
// finding that the model runs Ring/LL128 at 1 MiB; it names each choice
// in turn, and every choice another finding gives at its sizes.
func TestDiagnoseSwitchChain(t *testing.T) {
	t.Parallel()
	log := "../../data/nccltests/testdata/real/a100_4x2_allreduce_collnet_kisti_nccltests311.log"
	fs, _, _ := diagnoseJSON(t, log)
	held := 0
	for _, f := range fs {
		spans := f["from_bytes"].(float64) <= 1<<20 && 1<<20 <= f["to_bytes"].(float64)
		switch advice := fmt.Sprint(f["advice"]); {
		case spans && f["kind"] == "stalled":
			held++
			if !strings.Contains(advice, "the 1 MiB row took 8.79x as long as the 256 KiB row") || !strings.Contains(advice, "a far slower choice") {
				t.Errorf("1 MiB's stall finding: %s; want the growth named, and both causes", advice)
			}
		case spans && f["kind"] == "non-monotone at an algorithm switch":
			t.Errorf("a switch finding spans the held-up 1 MiB row: %v", f)
		}
	}
	if held != 1 {
		t.Errorf("%d stall findings at 1 MiB, want 1: %v", held, fs)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	row := "1048576        262144     float     sum      -1   1473.4    0.71    1.25      0   1471.6    0.71    1.25      0"
	if !strings.Contains(string(b), row) {
		t.Fatalf("no 1 MiB row %q", row)
	}
	kept := filepath.Join(t.TempDir(), "kisti.log")
	// 1 MiB in 583.4 us moves 1.80 GB/s, 3.15 of bus bandwidth on 8 ranks.
	slower := "1048576        262144     float     sum      -1    583.4    1.80    3.15      0    581.6    1.80    3.15      0"
	if err := os.WriteFile(kept, []byte(strings.Replace(string(b), row, slower, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	fs, _, _ = diagnoseJSON(t, kept)
	var switches, others []map[string]any
	for _, f := range fs {
		if f["kind"] == "non-monotone at an algorithm switch" {
			switches = append(switches, f)
		} else if f["nccl"] != nil {
			others = append(others, f)
		}
	}
	if len(switches) == 0 {
		t.Fatalf("no switch finding: %v", fs)
	}
	for _, s := range switches {
		for _, o := range others {
			from := o["from_bytes"].(float64)
			if from == o["to_bytes"].(float64) && s["from_bytes"].(float64) <= from && from <= s["to_bytes"].(float64) &&
				!strings.Contains(fmt.Sprint(s["nccl"]), fmt.Sprint(o["nccl"])) {
				t.Errorf("switch %v..%v names %v; another finding has the model run %v at %v", s["from_bytes"], s["to_bytes"], s["nccl"], o["nccl"], from)
			}
		}
	}
}

// TestDiagnoseBeyondTheFloor: Voltage Park's one-node Broadcast, one thread
// driving 8 H100s (-g 8), follows the model's launch floor from 8 B to 16
// KiB, and takes 5 to 19 times it at other launch-bound sizes, whose
// rows are out of order. The advice named the launch floor and CUDA graphs
// there (red team 44); the table's own rows show the floor, and such gaps
// are more than a launch's per-channel work makes (floorGap).
func TestDiagnoseBeyondTheFloor(t *testing.T) {
	t.Parallel()
	fs, _, _ := diagnoseJSON(t, "../../data/nccltests/testdata/real/h100_1x8_g8_broadcast_voltagepark.log")
	n := 0
	for i, f := range fs {
		if f["term"] != "launch" || f["kind"] != "slower than the model" {
			continue
		}
		n++
		advice := fmt.Sprint(f["advice"])
		if r := f["measured_over_model"].(float64); r > 3 && (!strings.Contains(advice, "is not the launches") || strings.Contains(advice, "try CUDA graphs")) {
			t.Errorf("finding %d, %.2fx the floor: %s", i+1, r, advice)
		}
	}
	if n == 0 {
		t.Errorf("no launch-bound departure: %v", fs)
	}
}
