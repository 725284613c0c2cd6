package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cluster01Logs are the nine logs of the 10-node H100 cluster of the
// paired set, one table each as plot draws them (test 0).
var cluster01Logs = []string{
	"nccl_N10_G1.log", "nccl_N10_G2.log", "nccl_N10_G4.log", "nccl_N10_G8.log",
	"nccl_N1_G4_cnode3-002.log", "nccl_N1_G8_cnode3-002.log",
	"nccl_N2_G1_cnode3-002_cnode3-003.log", "nccl_N2_G4_cnode3-002_cnode3-003.log", "nccl_N2_G8_cnode3-002_cnode3-003.log",
}

func cluster01(n int) []string {
	var out []string
	for _, f := range cluster01Logs[:n] {
		out = append(out, filepath.Join("../../data/logs/paired/h100-sxm-10node-cluster01", f))
	}
	return out
}

// TestPlotManyLogsLegend: a figure of the 10-node cluster's nine logs gave
// the first and the ninth the same colour and dash (the palette holds 8),
// and its legend of 21 entries ran past the figure's bottom edge, over the
// size axis' labels, the third mark's name cut off, while standard output
// said 3 marks were named. More logs than colours is refused, and so is a
// legend the figure cannot hold (eight logs, one entry each, and three
// marks at 3in); the default 4.5in holds it.
func TestPlotManyLogsLegend(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "f.svg")
	code, _, stderr := runCLI(append(append([]string{"plot"}, cluster01(9)...), "-o", out)...)
	if code != 2 || !strings.Contains(stderr, "9 logs: one figure tells at most 8 apart") {
		t.Errorf("nine logs: exit %d, want 2 and the count refused; stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(append(append([]string{"plot"}, cluster01(8)...), "-o", out, "-height", "3in")...)
	if code != 2 || !strings.Contains(stderr, "the legend's 11 entries") || !strings.Contains(stderr, "-height") {
		t.Errorf("eight logs at 7in x 3in: exit %d, want 2 and the legend refused; stderr:\n%s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused figure was written to %s", out)
	}
	code, stdout, stderr := runCLI(append(append([]string{"plot"}, cluster01(8)...), "-o", out)...)
	if code != 0 || strings.Contains(stderr, "legend") {
		t.Errorf("eight logs at 7in x 4.5in: exit %d, want 0 and no word of the legend; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "1 GiB: NVLSTree/Simple to Ring/Simple") {
		t.Errorf("eight logs: want the third mark named; stdout:\n%s", stdout)
	}
}

// TestPlotSmallFigureLegend: two logs on a 3.5in x 2.6in figure had a
// legend 254pt wide in a data area of 164pt, cut at the figure's right
// edge; one log's thumbnail is still drawn, with a warning.
func TestPlotSmallFigureLegend(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "f.svg")
	code, _, stderr := runCLI(append(append([]string{"plot"}, cluster01(2)...), "-o", out, "-width", "3.5in", "-height", "2.6in")...)
	if code != 2 || !strings.Contains(stderr, "the legend's 4 entries") {
		t.Errorf("two logs at 3.5in x 2.6in: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI("plot", h200Log, "-o", out, "-width", "2in", "-height", "1in")
	if code != 0 || !strings.Contains(stderr, "-o "+out+": the legend's 4 entries") {
		t.Errorf("one log at 2in x 1in: exit %d, want 0 and a warning of the legend; stderr:\n%s", code, stderr)
	}
}

// TestPlotCalibratedTitle: every calibrated figure's title counted its
// tables twice, "H100 SXM, model calibrated on 4 4 tables" for nccl-tests
// issue 309's 2-node Ring run beside the cluster's four other tables.
func TestPlotCalibratedTitle(t *testing.T) {
	t.Parallel()
	const real = "../../data/nccltests/testdata/real/"
	svg, _ := plotFile(t, "f.svg", real+"h100_2x8_allreduce_ring_minctas24_nccltests309.log:algo=ring", "-calibrate",
		real+"h100_8x8_allreduce_default_nccltests309.log,"+real+"h100_8x8_allreduce_minctas24_nccltests309.log,"+
			real+"h100_2x8_allreduce_default_nccltests309.log,"+real+"h100_4x8_allreduce_default_nccltests309.log")
	if !strings.Contains(string(svg), "H100 SXM, model calibrated on 4 tables<") {
		t.Errorf("the figure's title is not \"H100 SXM, model calibrated on 4 tables\"")
	}
}
