package main

import (
	"os"
	"strings"
	"testing"
)

// TestStdinEmpty: "-" that reads nothing (a pipe whose writer printed
// nothing, or none given) says that standard input was empty, for a log
// and for a capture, and exits 1. Not parallel: it sets os.Stdin.
func TestStdinEmpty(t *testing.T) {
	stdin := os.Stdin
	t.Cleanup(func() { os.Stdin = stdin })
	for _, args := range [][]string{
		{"diagnose", "-"},
		{"predict", "-calibrate", "-", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"},
		{"topo", "-"},
		{"predict", "-topo", "-", "-gpu", "H100", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"},
	} {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		os.Stdin = f
		code, _, stderr := runCLI(args...)
		f.Close()
		if code != 1 || !strings.Contains(stderr, "standard input (-) gave nothing") {
			t.Errorf("%v from an empty standard input: exit %d, %s; want 1 and standard input named", args, code, stderr)
		}
	}
}
