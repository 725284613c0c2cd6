package main

import (
	"os"
	"path/filepath"
	"slices"
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

// A capture or a -hw file given as a stream is read once: each command
// that takes them says of a stream what it says of the file it holds.
func TestStreamInputs(t *testing.T) {
	hw := filepath.Join(t.TempDir(), "hw.txt")
	if err := os.WriteFile(hw, []byte("# two NICs a host\nnics=2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	capture := "../../topo/testdata/dgx_h100_tabs.txt"
	log := "../../data/nccltests/testdata/real/h100_1x8_g8_allreduce_voltagepark.log"
	for _, args := range [][]string{
		{"diagnose", "-topo", capture, log},
		{"diagnose", "-hw", hw, log},
		{"plot", "-topo", capture, "-o", "FIG", log},
		{"predict", "-topo", capture, "-calibrate", log, "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1GiB"},
		{"predict", "-hw", hw, "-calibrate", log, "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1GiB"},
		{"tune", "-hw", hw, "-topo", capture, "-calibrate", log, "-nodes", "1,2", "-per-node", "8", "-o", "-"},
	} {
		t.Run(strings.Join(args[:2], ""), func(t *testing.T) {
			outputs, fig := [2]string{}, filepath.Join(t.TempDir(), "fig.svg")
			for i := range outputs {
				a := slices.Clone(args)
				for k := range a {
					if a[k] == "FIG" {
						a[k] = fig
					}
					if i == 1 && k > 0 && (a[k-1] == "-topo" || a[k-1] == "-hw") {
						a[k] = fifoOf(t, a[k])
					}
				}
				code, out, stderr := runCLI(a...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", a, code, stderr)
				}
				outputs[i] = out + stderr
				for k := range a {
					if a[k] != args[k] {
						outputs[i] = strings.ReplaceAll(outputs[i], a[k], args[k])
					}
				}
			}
			if outputs[0] != outputs[1] {
				t.Errorf("from files:\n%s\nfrom streams:\n%s", outputs[0], outputs[1])
			}
		})
	}
}
