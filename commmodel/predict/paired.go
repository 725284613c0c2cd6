package predict

import (
	"encoding/csv"
	"fmt"
	"io/fs"

	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// A PairedMachine is one machine of the paired logs, ready to calibrate:
// its hardware and its tables of collectives the model predicts.
type PairedMachine struct {
	// Name is the machine's directory name.
	Name string
	// Hardware is what the paired logs' README.md says of the machine.
	Hardware Hardware
	// Tables are its tables in manifest order, named "machine/file#test".
	Tables []Table
}

// pairedHardware holds what the paired logs' README.md states beyond the
// GPU name: the NICs per host and their line rate (ABCI's published system
// overview for the two ABCI node types, NVIDIA/nccl-tests#290's issue text,
// and for cluster01 one 400 Gb/s NIC per GPU, which its numbers suggest).
// The other machines are single hosts or, for GB300, NVL72 racks whose
// network is not stated: they keep DefaultHardware's.
var pairedHardware = map[string]struct {
	nics  int
	nicBW float64
}{
	"a100-sxm4-abci-ib4xhdr":    {4, 25e9},   // 4 x InfiniBand HDR 200 Gb/s
	"v100-sxm2-abci-ib2xedr":    {2, 12.5e9}, // 2 x InfiniBand EDR 100 Gb/s
	"h100-sxm-ib8xndr":          {8, 50e9},   // 8 x ConnectX-7 NDR 400 Gb/s
	"h100-sxm-10node-cluster01": {8, 50e9},
}

// pairedAlgo gives the NCCL_ALGO of tables whose manifest "auto" does not
// say all: Together's collnet_sharp run is the tuner with NVLS disabled
// (the README: CollNet needs a network, so it is the tuner without NVLS).
var pairedAlgo = map[string]string{
	"h100-sxm-1x8-together/all_reduce_collnet_sharp.log": "^NVLS,NVLSTree",
}

// pairedGPU names the GPU of tables whose Rank lines print a driver's
// generic name: CoreWeave's one- and two-rack blocks print "NVIDIA
// Graphics Device", and the same README's 20-rack block "NVIDIA GB200".
var pairedGPU = map[string]string{
	"gb200-nvl72-coreweave/allreduce_1rack.log":  "NVIDIA GB200",
	"gb200-nvl72-coreweave/allreduce_2racks.log": "NVIDIA GB200",
}

// PairedMachines reads the paired logs in fsys (data.PairedLogs: a
// MANIFEST.csv that lists every table, and the logs it names) and returns
// every table whose collective the model predicts, with the manifest's
// shape, pins and NCCL version, grouped by machine in manifest order.
// Tables of Reduce and SendRecv are left out.
func PairedMachines(fsys fs.FS) ([]PairedMachine, error) {
	rows, err := readManifest(fsys)
	if err != nil {
		return nil, err
	}
	byFile := map[string][]manifestRow{}
	var files []string
	for _, r := range rows {
		key := r.machine + "/" + r.file
		if byFile[key] == nil {
			files = append(files, key)
		}
		byFile[key] = append(byFile[key], r)
	}
	var out []PairedMachine
	index := map[string]int{}
	for _, key := range files {
		fr := byFile[key]
		b, err := fs.ReadFile(fsys, key)
		if err != nil {
			return nil, err
		}
		tabs, _, err := ReadBytes(b, key, func(test int) Pins { return pinsOf(key, fr, test) })
		if err != nil {
			return nil, err
		}
		m := fr[0].machine
		i, ok := index[m]
		if !ok {
			gpu := fr[0].gpu
			if g, ok := pairedGPU[key]; ok {
				gpu = g
			}
			h, err := DefaultHardware(gpu)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m, err)
			}
			if hw, ok := pairedHardware[m]; ok {
				h.NICs, h.NICBW = hw.nics, hw.nicBW
			}
			i = len(out)
			index[m] = i
			out = append(out, PairedMachine{Name: m, Hardware: h})
		}
		for _, t := range tabs {
			t.Name = m + "/" + t.Name
			out[i].Tables = append(out[i].Tables, t)
		}
	}
	return out, nil
}

// pinsOf returns the pins of test of the file key, whose manifest rows are
// rows.
func pinsOf(key string, rows []manifestRow, test int) Pins {
	i := slices.IndexFunc(rows, func(r manifestRow) bool { return r.test == test })
	if i < 0 {
		return Pins{}
	}
	r := rows[i]
	p := Pins{Algo: r.algo, Proto: r.proto, Ranks: r.ranks, Nodes: r.nodes, PerNode: r.perNode, GPU: pairedGPU[key]}
	if a, ok := pairedAlgo[key]; ok {
		p.Algo = a
	}
	if r.version != "" {
		p.Version, _ = nccl.ParseVersion(r.version)
	}
	return p
}

// A manifestRow is one row of the paired logs' MANIFEST.csv: one table,
// test number test (0-based) of machine/file.
type manifestRow struct {
	line                  int
	machine, file         string
	test                  int
	collective            string // allreduce, ..., reduce, sendrecv
	nodes, perNode, ranks int
	algo, proto           string // the pins, "auto" when the tuner chose
	gpu, version, source  string // the Rank lines' GPU name, NCCL's release ("" when unknown)
}

// manifestHeader is MANIFEST.csv's header.
var manifestHeader = []string{"machine", "file", "test_index", "collective", "nodes", "gpus_per_node",
	"ranks", "algo", "proto", "gpu_name", "nccl_version", "source"}

// readManifest reads MANIFEST.csv of fsys.
func readManifest(fsys fs.FS) ([]manifestRow, error) {
	const name = "MANIFEST.csv"
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) < 2 || !slices.Equal(recs[0], manifestHeader) {
		return nil, fmt.Errorf("%s: want the header %q and rows", name, manifestHeader)
	}
	var rows []manifestRow
	for i, r := range recs[1:] {
		var n [4]int
		for j, col := range []int{2, 4, 5, 6} {
			if n[j], err = strconv.Atoi(r[col]); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", name, i+2, manifestHeader[col], err)
			}
		}
		rows = append(rows, manifestRow{line: i + 2, machine: r[0], file: r[1], test: n[0], collective: r[3],
			nodes: n[1], perNode: n[2], ranks: n[3], algo: r[7], proto: r[8], gpu: r[9], version: r[10], source: r[11]})
	}
	return rows, nil
}
