package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDiagnoseFindingNumbersAfterBaseline: a finding that refers to another
// names it by its number in the whole list, the findings against a
// calibration table of the run's shape, which come first, counted. CSCS
// Alps' GH200 AllReduce in a container over CXI, calibrated on the same
// machine's other runs, one of them of its shape, opens with three such
// findings; a departure at 512 KiB that the assumed NICs may explain
// referred to "finding 2" (a baseline finding) for the guesses that
// finding 5 names.
func TestDiagnoseFindingNumbersAfterBaseline(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	fs, _, _ := diagnoseJSON(t, dir+"gh200_2x4_allreduce_cxi_container_alps.log",
		"-calibrate", dir+"gh200_2x1_allreduce_slingshot_alps_sarus.log,"+dir+"gh200_2x4_allreduce_slingshot_alps.log")
	ref := regexp.MustCompile(`as for finding (\d+)`)
	baseline, refs := 0, 0
	for i, f := range fs {
		advice := fmt.Sprint(f["advice"])
		if strings.Contains(fmt.Sprint(f["kind"]), "calibration table of its shape") {
			baseline++
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
