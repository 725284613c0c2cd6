package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzFileInputs writes the fuzz input to a file and gives it to each
// subcommand that reads one, as a log, a topology capture and a -hw file:
// whatever the file holds, the command ends with exit 0, 1 or 2, never a
// panic.
func FuzzFileInputs(f *testing.F) {
	for _, seed := range []string{ringLog, "../../data/logs/h20_2x8_allreduce_nvls_nccl1244.log", "../../topo/testdata/dgx_a100_nps4.txt"} {
		b, err := os.ReadFile(seed)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("cc=9.0,links=18,link-bw=25GB/s\n"))
	f.Add([]byte("# Out of bounds values : 3 FAILED\n"))
	f.Add([]byte{0xff, 0xfe, 0, 'a'})
	f.Fuzz(func(t *testing.T, b []byte) {
		file := filepath.Join(t.TempDir(), "in.log")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		const gpu = "NVIDIA H100 80GB HBM3"
		for _, args := range [][]string{
			{"fit", file},
			{"fit", file, "-format", "json"},
			{"compare", file, ringLog, "-format", "json"},
			{"topo", file},
			{"diagnose", file, "-gpu", gpu},
			{"predict", "-calibrate", file + ":ranks=8:nodes=1:gpu=" + gpu, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB", "-format", "json"},
			{"predict", "-hw", file, "-gpu", gpu, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"},
			{"predict", "-topo", file, "-gpu", gpu, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"},
		} {
			if code := run(args, io.Discard, io.Discard); code < 0 || code > 2 {
				t.Errorf("%q: exit %d, want 0, 1 or 2", args, code)
			}
		}
	})
}
