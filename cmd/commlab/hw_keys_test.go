package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHardwareKeyGivenTwice: a -hw key given two values, on the command
// line (a usage error) or in a file (an error at its file and line), is
// refused rather than read as its last value without a word; a -hw file's
// bad value is named with its file and line (red team 38). The same value
// twice stands.
func TestHardwareKeyGivenTwice(t *testing.T) {
	dir := t.TempDir()
	twice := filepath.Join(dir, "twice.hw")
	bad := filepath.Join(dir, "bad.hw")
	for name, text := range map[string]string{twice: "links=18\nlink-bw=25GB/s # per link\nlinks=2\n", bad: "links=18\n\nnics=0\n"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		hw   string
		code int
		want string
	}{
		{"links=18,links=2", 2, "-hw: links given twice (links=18 and links=2)"},
		{twice, 1, twice + ":3: links given twice (links=2 here, links=18 on line 1)"},
		{bad, 1, bad + ":3: hardware nics=0: want a count"},
		{"links=18, links=18", 0, ""},
	} {
		args := []string{"predict", "-gpu", "H100", "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1MiB", "-hw", c.hw}
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("-hw %q: exit %d, %s; want exit %d and %q", c.hw, code, errb.String(), c.code, c.want)
		}
	}
}

// A bad value inside a -hw file is the file's content, not usage: every
// subcommand that takes -hw exits 1 and names FILE:LINE (model, crossover
// and simulate exited 2, red team 38); the same value on the command line
// is a usage error, exit 2.
func TestHwFileBadValueExit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.hw")
	if err := os.WriteFile(file, []byte("cc=9.0\nlinks=abc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const gpu = "NVIDIA H100 80GB HBM3"
	for _, c := range []struct {
		args []string
		line bool // the error names FILE:LINE
	}{
		{[]string{"model", "-p", "16", "-gpu", gpu}, true},
		{[]string{"crossover", "-p", "16", "-gpu", gpu}, true},
		{[]string{"simulate", "-p", "16", "-size", "1MiB", "-gpu", gpu}, true},
		{[]string{"predict", "-gpu", gpu, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"}, true},
		{[]string{"diagnose", ringLog}, true},
		{[]string{"tune", "-calibrate", ringLog, "-comms", "1x8", "-o", filepath.Join(t.TempDir(), "t.conf")}, true},
		{[]string{"plot", ringLog, "-o", filepath.Join(t.TempDir(), "p.svg")}, true},
	} {
		for _, hw := range []string{file, "cc=9.0,links=abc"} {
			var stderr strings.Builder
			code := run(append(slices.Clone(c.args), "-hw", hw), io.Discard, &stderr)
			want := 1
			if hw != file {
				want = 2
			}
			if code != want {
				t.Errorf("%v -hw %s: exit %d, want %d: %s", c.args, hw, code, want, stderr.String())
			}
			if hw == file && c.line && !strings.Contains(stderr.String(), file+":2:") {
				t.Errorf("%v -hw FILE: %q names no %s:2", c.args, stderr.String(), file)
			}
		}
	}
}

// TestHardwareFileDescribesNothing: a -hw file that gives no KEY=VALUE
// (/dev/null, or only comments and blank lines) describes nothing; every
// command that takes -hw says so, on stderr, in the JSON's problems or in
// the textbook model's notes (caveats), and runs as without -hw. A file
// that gives one key, or -hw on the command line, draws no such warning.
func TestHardwareFileDescribesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	comments := filepath.Join(dir, "comments.hw")
	one := filepath.Join(dir, "one.hw")
	for name, text := range map[string]string{comments: "# the lab's H100 node\n\n   \n# links=18\n", one: "# the lab's H100 node\nlinks=18\n"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := ringLog
	commands := map[string][]string{
		"predict":   {"predict", "-gpu", "H100", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"},
		"diagnose":  {"diagnose", log},
		"plot":      {"plot", log, "-o", filepath.Join(dir, "plot.svg")},
		"tune":      {"tune", "-calibrate", log, "-nodes", "1", "-per-node", "8", "-collective", "allreduce", "-size", "1MiB", "-o", filepath.Join(dir, "tuner.conf")},
		"model":     {"model", "-gpu", "H100", "-p", "8", "-size", "1MiB"},
		"crossover": {"crossover", "-gpu", "H100", "-p", "8"},
		"simulate":  {"simulate", "-gpu", "H100", "-p", "8", "-size", "1MiB", "-collective", "allreduce", "-algo", "ring"},
	}
	for name, args := range commands {
		for _, hw := range []string{os.DevNull, comments, one, "links=18"} {
			code, out, stderr := runCLI(append(slices.Clone(args), "-hw", hw)...)
			said := strings.Contains(out+stderr, "-hw "+hw+": the file gives no KEY=VALUE (it is empty, or holds only comments and blank lines): it describes nothing")
			if want := hw == os.DevNull || hw == comments; code != 0 || said != want {
				t.Errorf("%s -hw %s: exit %d, warned %v (want %v):\n%s%s", name, hw, code, said, want, out, stderr)
			}
		}
	}
	// The JSON's problems (predict's, diagnose's) and caveats (the textbook model's).
	for _, args := range [][]string{commands["predict"], commands["diagnose"], commands["simulate"], commands["model"]} {
		code, out, _ := runCLI(append(slices.Clone(args), "-hw", os.DevNull, "-format", "json")...)
		if code != 0 || !strings.Contains(out, `"-hw `+os.DevNull+`: the file gives no KEY=VALUE`) {
			t.Errorf("%s -hw %s -format json: exit %d, the JSON lacks the warning:\n%s", args[0], os.DevNull, code, out)
		}
	}
}

// TestHwFileBOM: a -hw file an editor saved with a UTF-8 byte-order mark
// reads as the same file without it: its first key was "\ufeffnics",
// unknown, with the mark invisible in a terminal (red team C).
func TestHwFileBOM(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bom.hw")
	if err := os.WriteFile(file, []byte("\ufeffnics=4\nnic-bw=200Gb/s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, _, err := readDescription(file)
	if err != nil || spec != "nics=4,nic-bw=200Gb/s" {
		t.Errorf("readDescription: %q, %v; want nics=4,nic-bw=200Gb/s", spec, err)
	}
}
