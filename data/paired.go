package data

import (
	"embed"
	"io/fs"
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
// NCCL version and source. predict.PairedMachines reads them for
// calibration.
func PairedLogs() fs.FS {
	sub, err := fs.Sub(pairedFS, "logs/paired")
	if err != nil {
		panic(err) // the embedded directory is there by construction
	}
	return sub
}
