package data

import (
	"bytes"
	"embed"
	"encoding/csv"
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
)

// PairedDir is the directory of the paired logs, from the module root.
const PairedDir = "data/logs/paired"

// pairedFS embeds the paired logs and their manifest (logs/paired).
//
//go:embed logs/paired
var pairedFS embed.FS

// A PairedRow is one row of the paired logs' MANIFEST.csv: one table.
type PairedRow struct {
	// Line is the row's line in the file.
	Line int
	// Machine, File and Test locate the table: test Test (0-based) of
	// Machine/File.
	Machine, File string
	Test          int
	// Collective is the manifest's name (allreduce, ..., reduce, sendrecv).
	Collective string
	// Nodes, PerNode and Ranks are the run's shape.
	Nodes, PerNode, Ranks int
	// Algo and Proto are the pins ("auto" when the tuner chose).
	Algo, Proto string
	// GPU is the Rank lines' GPU name; Version the NCCL release ("" when
	// unknown); Source where the log comes from.
	GPU, Version, Source string
}

// pairedHeader is MANIFEST.csv's header.
var pairedHeader = []string{"machine", "file", "test_index", "collective", "nodes", "gpus_per_node",
	"ranks", "algo", "proto", "gpu_name", "nccl_version", "source"}

// ReadPairedManifest reads the paired logs' MANIFEST.csv at path.
func ReadPairedManifest(path string) ([]PairedRow, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return readPairedManifest(b, path)
}

// readPairedManifest parses MANIFEST.csv's text, named path in errors.
func readPairedManifest(b []byte, path string) ([]PairedRow, error) {
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) < 2 || !slices.Equal(recs[0], pairedHeader) {
		return nil, fmt.Errorf("%s: want the header %q and rows", path, pairedHeader)
	}
	var rows []PairedRow
	for i, r := range recs[1:] {
		var n [4]int
		for j, col := range []int{2, 4, 5, 6} {
			if n[j], err = strconv.Atoi(r[col]); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", path, i+2, pairedHeader[col], err)
			}
		}
		rows = append(rows, PairedRow{Line: i + 2, Machine: r[0], File: r[1], Test: n[0], Collective: r[3],
			Nodes: n[1], PerNode: n[2], Ranks: n[3], Algo: r[7], Proto: r[8], GPU: r[9], Version: r[10], Source: r[11]})
	}
	return rows, nil
}

// A PairedMachine is one machine of the paired logs, ready to calibrate:
// its hardware and its tables of collectives the model predicts.
type PairedMachine struct {
	// Name is the machine's directory name.
	Name string
	// Hardware is what logs/paired/README.md says of the machine.
	Hardware predict.Hardware
	// Tables are its tables in manifest order, named "machine/file#test".
	Tables []predict.Table
}

// pairedHardware holds what logs/paired/README.md states beyond the GPU
// name: the NICs per host and their line rate (ABCI's published system
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
// (logs/paired/README.md: CollNet needs a network, so it is the tuner
// without NVLS).
var pairedAlgo = map[string]string{
	"h100-sxm-1x8-together/all_reduce_collnet_sharp.log": "^NVLS,NVLSTree",
}

// PairedMachines reads every table of the embedded paired logs (the files
// of PairedDir) whose collective the model predicts, with the manifest's
// shape, pins and NCCL version, and groups them by machine in manifest
// order. Tables of Reduce and SendRecv are left out.
func PairedMachines() ([]PairedMachine, error) {
	const dir = "logs/paired"
	b, err := pairedFS.ReadFile(dir + "/MANIFEST.csv")
	if err != nil {
		return nil, err
	}
	rows, err := readPairedManifest(b, PairedDir+"/MANIFEST.csv")
	if err != nil {
		return nil, err
	}
	byFile := map[string][]PairedRow{}
	var files []string
	for _, r := range rows {
		key := r.Machine + "/" + r.File
		if byFile[key] == nil {
			files = append(files, key)
		}
		byFile[key] = append(byFile[key], r)
	}
	var out []PairedMachine
	index := map[string]int{}
	for _, key := range files {
		fr := byFile[key]
		pins := func(test int) Pins {
			for _, r := range fr {
				if r.Test != test {
					continue
				}
				p := Pins{Algo: r.Algo, Proto: r.Proto, Nodes: r.Nodes, PerNode: r.PerNode}
				if a, ok := pairedAlgo[key]; ok {
					p.Algo = a
				}
				if r.Version != "" {
					p.Version, _ = nccl.ParseVersion(r.Version)
				}
				return p
			}
			return Pins{}
		}
		b, err := pairedFS.ReadFile(path.Join(dir, key))
		if err != nil {
			return nil, err
		}
		tabs, _, err := predictTables(b, path.Join(PairedDir, key), pins)
		if err != nil {
			return nil, err
		}
		m := fr[0].Machine
		i, ok := index[m]
		if !ok {
			h, err := predict.DefaultHardware(fr[0].GPU)
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

// TablePoints returns the measured points of a predict.Table, for its gota
// frame (Points.Frame, whose size_bytes and time_us WithModel joins
// predictions to): source is the table's name, system its GPU, algorithm
// its NCCL_ALGO pin ("auto" when the tuner chose), placement out-of-place.
func TablePoints(t predict.Table) Points {
	algo := t.Algo
	if algo == "" {
		algo = "auto"
	}
	ps := make(Points, len(t.Points))
	for i, p := range t.Points {
		ps[i] = Point{Source: t.Name, System: t.GPU, Collective: t.Collective.String(), Algorithm: algo,
			NRanks: t.Ranks(), NNodes: t.Nodes, Size: int64(p.Size), Time: p.Time, Placement: "out-of-place"}
	}
	return ps
}
