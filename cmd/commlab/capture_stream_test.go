package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fifoOf serves the file src through a named pipe that yields its bytes to
// the first reader and nothing to any later one, as a shell's
// <(nvidia-smi topo -m) does.
func fifoOf(t *testing.T, src string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "capture")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		for first := true; ; first = false {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			select {
			case <-done:
				w.Close()
				return
			default:
			}
			if first {
				w.Write(b)
			}
			w.Close()
		}
	}()
	t.Cleanup(func() {
		close(done)
		// Releases the writer's open, which waits for a reader.
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
	})
	return fifo
}

// A capture given as a stream is read once: each command that takes -topo
// says of a stream what it says of the file it holds.
func TestCaptureStream(t *testing.T) {
	capture := "../../topo/testdata/dgx_h100_tabs.txt"
	log := "../../data/nccltests/testdata/real/h100_1x8_g8_allreduce_voltagepark.log"
	for _, args := range [][]string{
		{"diagnose", log},
		{"plot", "-o", "FIG", log},
		{"predict", "-calibrate", log, "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1GiB"},
	} {
		t.Run(args[0], func(t *testing.T) {
			outputs, fig := [2]string{}, filepath.Join(t.TempDir(), "fig.svg")
			for i, topoFile := range []string{capture, fifoOf(t, capture)} {
				a := append([]string{args[0], "-topo", topoFile}, args[1:]...)
				for k := range a {
					a[k] = strings.ReplaceAll(a[k], "FIG", fig)
				}
				code, out, stderr := runCLI(a...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", a, code, stderr)
				}
				outputs[i] = strings.ReplaceAll(out+stderr, topoFile, "CAPTURE")
			}
			if outputs[0] != outputs[1] {
				t.Errorf("from the file:\n%s\nfrom a stream:\n%s", outputs[0], outputs[1])
			}
		})
	}
}
