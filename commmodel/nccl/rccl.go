package nccl

// RCCL, NCCL's port to ROCm, keeps NCCL's tuner in src/graph/tuning.cc but
// replaces its tables on AMD GPUs (the __HIP_PLATFORM_AMD__ branches of
// ncclTopoTuneModel and ncclTopoGetAlgoTime): one base latency table for
// every GPU, per-step latencies from one of several tuning tables
// (rcclTuningModel, chosen by the topology model RCCL matches in
// src/graph/rome_models.cc), bus bandwidths scaled by the table's bwRatio
// instead of NCCL's refinements, its own Tree and Ring correction factors,
// and no Ring/Simple plateau. The package documentation says which of these
// the model follows; RCCLConstants gives RCCL's latencies on request.

// rcclTable5 reports whether RCCL version v runs tuning table 5 on the AMD
// target isa: gfx942 (MI300X, MI325X) from RCCL 2.18.6 (ROCm 6.1), whose
// 8-GPU Infinity Fabric platforms match the topology models that select it
// (rome_model_79, 81 and 84 set "tuning=5" in ROCm/rccl
// src/graph/rome_models.cc; the table entered in pull request 1047,
// 2024-01). Which table gfx950 and gfx90a platforms match is not modelled.
func rcclTable5(v Version, isa string) bool {
	return isa == "gfx942" && v.from(18, 6)
}

// RCCLConstants returns the constants of version v with RCCL's latency
// tables for the AMD target isa, and false where the model has none for it
// (every target but gfx942, and RCCL before 2.18.6). New does not use them
// by default: on the public MI300X logs (data/nccltests/testdata/real) they
// time the one-node AllReduce worse than NCCL's tables, and the bandwidth
// side of RCCL's tuner (bwRatio, its correction factors) that they go with
// is not modelled. A caller sets Config.Constants to them to see RCCL's
// latencies. RCCL's latencies, us, from ROCm/rccl src/graph/tuning.cc:
//
//	base latency          12 (LL), 12 (LL128), 17 (Simple) for Tree, Ring and CollNet; 0 for NVLS
//	table 5, Infinity     Tree 0.8/2.5, Ring 0.8/3.6 (LL/Simple; RCCL 2.18.6 to 2.20.x),
//	Fabric per step       Tree 0.9/2.3, Ring 0.8/2.1 (RCCL 2.21 on, pull request 1288, 2024-08)
//	table 5, network      Tree 12.5/22.4, Ring 9.5/19.8 (2.18.6 to 2.20.x),
//	per step              Tree 10.5/25, Ring 9.5/320 (2.21 on)
//	table 5, PCI          Tree and Ring 2.2/5.7, CollNet 5.7 (Simple)
//
// LL128 steps take LL's latency (RCCL 2.21's table has 0 there, and LL128
// does not run on gfx942 by default). RCCL applies no Ring/Simple plateau on
// AMD GPUs, so RingPlateau is 1.
func RCCLConstants(v Version, isa string) (Constants, bool) {
	c := DefaultConstants(v)
	if !rcclTable5(v, isa) {
		return c, false
	}
	base := [NumProtocols]float64{12, 12, 17}
	for _, a := range [...]Algo{AlgoTree, AlgoRing, AlgoCollNetDirect, AlgoCollNetChain} {
		c.BaseLatency[a] = base
	}
	c.BaseLatency[AlgoNVLS], c.BaseLatency[AlgoNVLSTree] = [NumProtocols]float64{}, [NumProtocols]float64{}
	// per-step latency of LL and Simple, us; LL128 takes LL's.
	steps := func(ll, simple float64) [NumProtocols]float64 { return [NumProtocols]float64{ll, ll, simple} }
	nvlTree, nvlRing := steps(0.8, 2.5), steps(0.8, 3.6)
	netTree, netRing := steps(12.5, 22.4), steps(9.5, 19.8)
	if v.from(21, 0) {
		nvlTree, nvlRing = steps(0.9, 2.3), steps(0.8, 2.1)
		netTree, netRing = steps(10.5, 25), steps(9.5, 320)
	}
	pci := steps(2.2, 5.7)
	c.HWLatency = [NumHW][NumAlgos][NumProtocols]float64{}
	c.HWLatency[HWNVLink][AlgoTree], c.HWLatency[HWNVLink][AlgoRing] = nvlTree, nvlRing
	c.HWLatency[HWNVLink][AlgoCollNetDirect] = [NumProtocols]float64{0, 0, nvlTree[LL]}
	c.HWLatency[HWNet][AlgoTree], c.HWLatency[HWNet][AlgoRing] = netTree, netRing
	c.HWLatency[HWNet][AlgoCollNetDirect] = [NumProtocols]float64{0, 0, netTree[LL]}
	c.HWLatency[HWPCI][AlgoTree], c.HWLatency[HWPCI][AlgoRing] = pci, pci
	c.HWLatency[HWPCI][AlgoCollNetDirect] = [NumProtocols]float64{0, 0, pci[Simple]}
	c.HWLatency[HWPCI][AlgoCollNetChain] = [NumProtocols]float64{0, 0, pci[Simple]}
	c.RingPlateau = [2]float64{1, 1}
	return c, true
}

// rcclSkips reports whether RCCL leaves (a, p) out of the tuning of a
// communicator of nodes nodes: Tree/Simple on one node of gfx942 (ROCm/rccl
// src/graph/tuning.cc, "gfx94", from RCCL 2.18.6, pull request 1063,
// 2024-01; gfx950 joins it later, in a release not pinned here).
func rcclSkips(v Version, isa string, nodes int, a Algo, p Protocol) bool {
	return isa == "gfx942" && v.from(18, 6) && nodes == 1 && a == AlgoTree && p == Simple
}
