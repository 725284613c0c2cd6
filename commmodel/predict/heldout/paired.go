package heldout

import (
	"fmt"
	"io/fs"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data"
)

// A PairedMachine is one machine of the paired logs, ready to calibrate:
// its hardware and its tables of collectives the model predicts.
type PairedMachine struct {
	// Name is the machine's directory name.
	Name string
	// Hardware is what the paired logs' README.md says of the machine
	// (data.PairedTable.Hardware) over predict.Describe's defaults.
	Hardware predict.Hardware
	// Tables are its tables in manifest order, named "machine/file#test".
	Tables []predict.Table
}

// PairedMachines reads the paired logs (data.PairedLogs, listed table by
// table in data.PairedManifest) and returns every table whose collective
// the model predicts, with the manifest's shape, pins and NCCL version,
// grouped by machine in manifest order. Tables of Reduce are left out.
func PairedMachines() ([]PairedMachine, error) {
	rows, err := data.PairedManifest()
	if err != nil {
		return nil, err
	}
	byFile := map[string][]data.PairedTable{}
	var files []string
	for _, r := range rows {
		key := r.Machine + "/" + r.File
		if byFile[key] == nil {
			files = append(files, key)
		}
		byFile[key] = append(byFile[key], r)
	}
	fsys := data.PairedLogs()
	var out []PairedMachine
	index := map[string]int{}
	for _, key := range files {
		fr := byFile[key]
		b, err := fs.ReadFile(fsys, key)
		if err != nil {
			return nil, err
		}
		tabs, _, err := predict.ReadBytes(b, key, func(test int) predict.Pins { return pinsOf(fr, test) })
		if err != nil {
			return nil, err
		}
		m := fr[0].Machine
		i, ok := index[m]
		if !ok {
			h, err := predict.Describe(fr[0].ModelGPU, fr[0].Hardware)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m, err)
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

// pinsOf returns the pins of test of a file whose manifest rows are rows.
func pinsOf(rows []data.PairedTable, test int) predict.Pins {
	for _, r := range rows {
		if r.Test != test {
			continue
		}
		p := predict.Pins{Algo: r.ModelAlgo, Proto: r.Proto, Ranks: r.Ranks, Nodes: r.Nodes, PerNode: r.PerNode}
		if r.ModelGPU != r.GPU {
			p.GPU = r.ModelGPU
		}
		if r.Version != "" {
			p.Version, _ = nccl.ParseVersion(r.Version)
		}
		return p
	}
	return predict.Pins{}
}
