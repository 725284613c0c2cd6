package nccltests

import (
	"os"
	"strings"
	"testing"
)

// Every log of the repository that prints NCCL's "Init COMPLETE" lines
// gives the communicator's ranks: from the "nRanks ... nNodes" line where
// the log holds one (NCCL 2.20 on), else from the first "Init COMPLETE"
// line (init.cc, NCCL 2.7 to 2.19: "comm %p rank %d nranks %d cudaDev %d
// [nvmlDev %d] busId %lx [commId 0x%llx] - Init COMPLETE"), and neither
// Nodes nor LocalRanks from those.
func TestEvidenceInitComplete(t *testing.T) {
	for _, c := range []struct {
		file     string
		ranks    int
		fromInit bool
	}{
		// 41: "[1,0]<stdout>:gpu-00:9000:9000 [0] NCCL INFO comm 0x55d0c0a0 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x9f1c2d - Init COMPLETE"
		{"testdata/mpirun_noisy_allreduce.log", 16, true},
		{"testdata/real/h800_1x8_broadcast_ncclinfo.log", 8, true},
		{"testdata/real/a100_2x4_allreduce_ncclinfo_perlmutter_ss11.log", 8, false},
		{"testdata/real/a100_1x4_allreduce_graphfile_azure_ncv4.log", 4, true},
		{"testdata/real/a100_1x4_allreduce_topofile_azure_ncv4.log", 4, true},
		{"testdata/real/a100_2x8_allreduce_azure_ndmv4_aks.log", 16, true},
		{"testdata/real/mi210_1x8_allreduce_ncclinfo_core42.log", 8, false},
		{"testdata/real/v100_efa_2x1_allreduce_pre2022.log", 2, true},
		{"testdata/real/rtxpro6000_2x1_allreduce_efa_g7e_slurm.log", 2, false},
		{"testdata/real/rtxpro6000_8x1_allreduce_efa_g7e_slurm.log", 8, false},
		{"testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log", 16, true},
		{"testdata/real/a100_1x2_sendrecv_leonardo_nccltests331.log", 2, false},
	} {
		t.Run(c.file, func(t *testing.T) {
			raw, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			// The first line that gives the count, of the form expected.
			want := 0
			for i, l := range strings.Split(string(raw), "\n") {
				if c.fromInit && strings.Contains(l, "Init COMPLETE") || !c.fromInit && strings.Contains(l, " nNodes ") {
					want = i + 1
					break
				}
			}
			l, err := readPath(c.file, Options{})
			if err != nil || len(l.Tests) == 0 {
				t.Fatalf("%d tests, %v", len(l.Tests), err)
			}
			e := l.Tests[0].Evidence
			if e.Ranks != (Fact[int]{c.ranks, want}) {
				t.Errorf("ranks %v, want %d at line %d", e.Ranks, c.ranks, want)
			}
			if c.fromInit && (e.Nodes.Known() || e.LocalRanks.Known()) {
				t.Errorf("nodes %v, local ranks %v from Init COMPLETE lines; want none", e.Nodes, e.LocalRanks)
			}
			for _, p := range l.Problems {
				if strings.Contains(p.Error(), "NCCL's communicator has") {
					t.Errorf("problem %v", p)
				}
			}
		})
	}
}

// The forms of NCCL's "Init COMPLETE" line (src/init.cc at the tags named),
// RCCL's, a split's (not read), lines that disagree (none read), and the
// nRanks line, which outranks them whichever comes first.
func TestEvidenceInitCompleteForms(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines []string
		want  Fact[int]
	}{
		{"2.8.4", []string{"comm 0x7f6f48000dc0 rank 0 nranks 2 cudaDev 0 busId 160 - Init COMPLETE"}, Fact[int]{2, 1}},
		{"2.18.1", []string{"comm 0x5598 rank 3 nranks 8 cudaDev 3 busId 5a000 commId 0xefdd95e4ad4062d9 - Init COMPLETE"}, Fact[int]{8, 1}},
		{"2.19.4", []string{"comm 0x5598 rank 3 nranks 8 cudaDev 3 nvmlDev 3 busId 5a000 commId 0xefdd - Init COMPLETE"}, Fact[int]{8, 1}},
		{"2.21.5", []string{"ncclCommInitRank comm 0x55ec rank 4 nranks 8 cudaDev 0 nvmlDev 0 busId 3000 commId 0x6f83 - Init COMPLETE"}, Fact[int]{8, 1}},
		{"2.30.7", []string{"ncclCommInitRankConfig comm 0x55ec rank 4 nranks 8 cudaDev 0 nvmlDev 0 busId 3000 commId 0x6f83 - Init COMPLETE"}, Fact[int]{8, 1}},
		{"rccl", []string{"ncclCommInitRank comm 0x246bc3a0 rank 7 nranks 8 cudaDev 7 nvmlDev 5 busId 88000 commId 0x61db localSize 296 used 425444064 bytes on core 7 - Init COMPLETE"}, Fact[int]{8, 1}},
		{"split", []string{"ncclCommSplit comm 0x55ec rank 0 nranks 4 cudaDev 0 nvmlDev 0 busId 3000 parent 0x55ab color 1 key 0 commId 0x6f83 - Init COMPLETE"}, Fact[int]{}},
		{"same", []string{
			"comm 0x1 rank 0 nranks 16 cudaDev 0 busId 18000 - Init COMPLETE",
			"comm 0x2 rank 1 nranks 16 cudaDev 1 busId 19000 - Init COMPLETE",
		}, Fact[int]{16, 1}},
		{"disagree", []string{
			"comm 0x1 rank 0 nranks 16 cudaDev 0 busId 18000 - Init COMPLETE",
			"comm 0x2 rank 1 nranks 8 cudaDev 1 busId 19000 - Init COMPLETE",
		}, Fact[int]{}},
		{"rank past nranks", []string{"comm 0x1 rank 9 nranks 8 cudaDev 0 busId 18000 - Init COMPLETE"}, Fact[int]{}},
		{"nRanks line after", []string{
			"comm 0x1 rank 0 nranks 16 cudaDev 0 busId 18000 - Init COMPLETE",
			"comm 0x1 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
		}, Fact[int]{16, 2}},
		{"nRanks line disagrees", []string{
			"comm 0x1 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
			"comm 0x1 rank 0 nranks 8 cudaDev 0 busId 18000 - Init COMPLETE",
		}, Fact[int]{16, 1}},
		{"not complete", []string{"comm 0x1 rank 0 nranks 16 cudaDev 0 busId 18000 - Init START"}, Fact[int]{}},
	} {
		var d debugState
		for i, l := range c.lines {
			d.line(i+1, "", l)
		}
		if e := d.evidence(); e.Ranks != c.want {
			t.Errorf("%s: ranks %v, want %v", c.name, e.Ranks, c.want)
		}
	}
	// Two halves merged (the lines of one test split by others) keep
	// their disagreement.
	var a, b debugState
	a.line(1, "", "comm 0x1 rank 0 nranks 16 cudaDev 0 busId 18000 - Init COMPLETE")
	b.line(2, "", "comm 0x2 rank 0 nranks 8 cudaDev 0 busId 18000 - Init COMPLETE")
	a.merge(&b)
	if e := a.evidence(); e.Ranks.Known() {
		t.Errorf("merged: ranks %v, want none", e.Ranks)
	}
}
