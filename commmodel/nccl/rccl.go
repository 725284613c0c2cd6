package nccl

// RCCL, NCCL's port to ROCm, keeps NCCL's tuner in src/graph/tuning.cc but
// replaces its tables on AMD GPUs (the __HIP_PLATFORM_AMD__ branches of
// ncclTopoTuneModel and ncclTopoGetAlgoTime): one base latency table for
// every GPU, per-step latencies from one of several tuning tables
// (rcclTuningModel, chosen by the topology model RCCL matches in
// src/graph/rome_models.cc), bus bandwidths scaled by the table's bwRatio
// instead of NCCL's refinements, its own Tree and Ring correction factors,
// and no Ring/Simple plateau. The package documentation says which of these
// the model follows.

// rcclSkips reports whether RCCL leaves (a, p) out of the tuning of a
// communicator of nodes nodes: Tree/Simple on one node of gfx942 (ROCm/rccl
// src/graph/tuning.cc, "gfx94", from RCCL 2.18.6, pull request 1063,
// 2024-01; gfx950 joins it later, in a release not pinned here).
func rcclSkips(v Version, isa string, nodes int, a Algo, p Protocol) bool {
	return isa == "gfx942" && v.from(18, 6) && nodes == 1 && a == AlgoTree && p == Simple
}
