package data

import (
	"embed"
	"encoding/csv"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// PairedDir is the directory of the paired logs, from the module root.
const PairedDir = "data/logs/paired"

// pairedFS embeds the paired logs and their manifest (logs/paired).
//
//go:embed logs/paired
var pairedFS embed.FS

// PairedLogs returns the paired logs (the files of PairedDir): public
// nccl-tests runs in which one machine was measured several ways, one
// folder of logs per machine, and MANIFEST.csv, which lists every table
// with its machine, file, test index, collective, shape, pins, GPU name,
// NCCL version and source (PairedManifest). Package heldout reads them
// into calibration tables.
func PairedLogs() fs.FS {
	sub, err := fs.Sub(pairedFS, "logs/paired")
	if err != nil {
		panic(err) // the embedded directory is there by construction
	}
	return sub
}

// A PairedTable is one row of the paired logs' MANIFEST.csv: test Test
// (0-based) of the log File of machine Machine, with what the manifest
// states of it and the curation a model needs beyond the log (ModelGPU,
// ModelAlgo, Hardware).
type PairedTable struct {
	// Line is the row's line in MANIFEST.csv.
	Line int
	// Machine is the machine's folder and File the log in it.
	Machine, File string
	// Test is the table's index in the file, from 0.
	Test int
	// Collective is nccl-tests' name of it: allreduce, ..., reduce, sendrecv.
	Collective string
	// Nodes and PerNode are the hosts and GPUs per host, Ranks their product.
	Nodes, PerNode, Ranks int
	// Algo and Proto are NCCL_ALGO and NCCL_PROTO, "auto" when the tuner chose.
	Algo, Proto string
	// GPU is the GPU name the Rank lines print, Version NCCL's release
	// ("" when unknown) and Source where the log comes from.
	GPU, Version, Source string

	// ModelGPU is the GPU a model should take where the Rank lines print a
	// driver's generic name, else GPU: CoreWeave's one- and two-rack blocks
	// print "NVIDIA Graphics Device", and the same README's 20-rack block
	// "NVIDIA GB200".
	ModelGPU string
	// ModelAlgo is the NCCL_ALGO a model should run where "auto" does not
	// say all, else Algo: Together's collnet_sharp run is the tuner with
	// NVLS disabled (its README: CollNet needs a network, so it is the
	// tuner without NVLS).
	ModelAlgo string
	// Hardware is what the paired logs' README.md states of the machine's
	// hosts beyond the GPU name, in the grammar of commlab's -hw flag
	// (predict.Describe); "" where it states nothing.
	Hardware string
}

// pairedHosts holds what the paired logs' README.md states of each
// machine's network beyond the GPU name: ABCI's published system overview
// for the two ABCI node types, NVIDIA/nccl-tests#290's issue text, and for
// cluster01 one 400 Gb/s NIC per GPU, which its numbers suggest. The other
// machines are single hosts or, for GB300, NVL72 racks whose network is not
// stated.
var pairedHosts = map[string]string{
	"a100-sxm4-abci-ib4xhdr":    "nics=4,nic-bw=200Gb/s", // 4 x InfiniBand HDR
	"v100-sxm2-abci-ib2xedr":    "nics=2,nic-bw=100Gb/s", // 2 x InfiniBand EDR
	"h100-sxm-ib8xndr":          "nics=8,nic-bw=400Gb/s", // 8 x ConnectX-7 NDR
	"h100-sxm-10node-cluster01": "nics=8,nic-bw=400Gb/s",
}

// pairedAlgo and pairedGPU are the ModelAlgo and ModelGPU that differ from
// the manifest's, by "machine/file".
var (
	pairedAlgo = map[string]string{
		"h100-sxm-1x8-together/all_reduce_collnet_sharp.log": "^NVLS,NVLSTree",
	}
	pairedGPU = map[string]string{
		"gb200-nvl72-coreweave/allreduce_1rack.log":  "NVIDIA GB200",
		"gb200-nvl72-coreweave/allreduce_2racks.log": "NVIDIA GB200",
	}
)

// pairedHeader is MANIFEST.csv's header.
var pairedHeader = []string{"machine", "file", "test_index", "collective", "nodes", "gpus_per_node",
	"ranks", "algo", "proto", "gpu_name", "nccl_version", "source"}

// PairedManifest returns the rows of the paired logs' MANIFEST.csv in
// order, with their curation.
func PairedManifest() ([]PairedTable, error) { return readPairedManifest(PairedLogs()) }

// readPairedManifest reads MANIFEST.csv of fsys.
func readPairedManifest(fsys fs.FS) ([]PairedTable, error) {
	const name = "MANIFEST.csv"
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) < 2 || !slices.Equal(recs[0], pairedHeader) {
		return nil, fmt.Errorf("%s: want the header %q and rows", name, pairedHeader)
	}
	var rows []PairedTable
	for i, r := range recs[1:] {
		var n [4]int
		for j, col := range []int{2, 4, 5, 6} {
			if n[j], err = strconv.Atoi(r[col]); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", name, i+2, pairedHeader[col], err)
			}
		}
		t := PairedTable{Line: i + 2, Machine: r[0], File: r[1], Test: n[0], Collective: r[3],
			Nodes: n[1], PerNode: n[2], Ranks: n[3], Algo: r[7], Proto: r[8], GPU: r[9], Version: r[10], Source: r[11],
			ModelGPU: r[9], ModelAlgo: r[7], Hardware: pairedHosts[r[0]]}
		key := t.Machine + "/" + t.File
		if g, ok := pairedGPU[key]; ok {
			t.ModelGPU = g
		}
		if a, ok := pairedAlgo[key]; ok {
			t.ModelAlgo = a
		}
		rows = append(rows, t)
	}
	return rows, nil
}
