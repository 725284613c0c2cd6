package main

import (
	"os"
	"path/filepath"
	"regexp"
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

// TestStdinInputs: "-" reads a log, a capture or a -hw description from
// standard input, as its file says it; given for two inputs it is a usage
// error, which names the count. Not parallel: it sets os.Stdin.
func TestStdinInputs(t *testing.T) {
	capture := "../../topo/testdata/dgx_h100_tabs.txt"
	log := "../../data/nccltests/testdata/real/h100_1x8_g8_allreduce_voltagepark.log"
	stdin := os.Stdin
	t.Cleanup(func() { os.Stdin = stdin })
	feed := func(path string) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		os.Stdin = f
	}
	for _, c := range []struct {
		args []string
		from string
	}{
		{[]string{"diagnose", log}, log},
		{[]string{"predict", "-calibrate", log, "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1GiB"}, log},
		{[]string{"predict", "-topo", capture, "-gpu", "H100", "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1GiB"}, capture},
	} {
		code, want, stderr := runCLI(c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		args := slices.Clone(c.args)
		args[slices.Index(args, c.from)] = "-"
		feed(c.from)
		code, got, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		// Standard input is named "-" where the file is named.
		if want = strings.ReplaceAll(want, c.from, "-"); got != want {
			t.Errorf("%v from standard input:\n%s\nwant, from the file:\n%s", args, got, want)
		}
	}
	for _, args := range [][]string{
		{"diagnose", "-topo", "-", "-"},
		{"predict", "-calibrate", "-", "-hw", "-", "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1GiB"},
	} {
		feed(log)
		if code, _, stderr := runCLI(args...); code != 2 || !strings.Contains(stderr, "standard input (-) is given for 2 inputs") {
			t.Errorf("%v: exit %d, %s; want 2 and standard input named", args, code, stderr)
		}
	}
}

// TestTuneCheckStream: tune -check reads its rules file once, through
// readInput's bound: a stream (<(cat FILE)) is checked as its file is,
// where its header was read and the check found it empty; /dev/zero is
// refused, where it took 7 GB in 20 s; standard input is one input among
// -calibrate's. Not parallel: it sets os.Stdin.
func TestTuneCheckStream(t *testing.T) {
	log := "../../data/nccltests/testdata/real/h100_1x8_g8_allreduce_voltagepark.log"
	rules := filepath.Join(t.TempDir(), "rules.conf")
	if code, _, stderr := runCLI("tune", "-calibrate", log, "-nodes", "1,2", "-per-node", "8", "-o", rules); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	check := func(file string) (int, string) {
		code, out, stderr := runCLI("tune", "-check", file, "-calibrate", log, "-nodes", "1,2", "-per-node", "8")
		if file == "-" {
			return code, regexp.MustCompile(`(?m)^-:`).ReplaceAllString(out+stderr, "RULES:")
		}
		return code, strings.ReplaceAll(out+stderr, file, "RULES")
	}
	code, want := check(rules)
	if code != 0 {
		t.Fatalf("tune -check %s: exit %d: %s", rules, code, want)
	}
	if code, got := check(fifoOf(t, rules)); code != 0 || got != want {
		t.Errorf("tune -check of a stream: exit %d:\n%s\nwant, as of the file:\n%s", code, got, want)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if code, got := check("/dev/zero"); code != 1 || !strings.Contains(got, "not a text file") {
			t.Errorf("tune -check /dev/zero: exit %d: %s; want a file that is not text", code, got)
		}
	}
	stdin := os.Stdin
	t.Cleanup(func() { os.Stdin = stdin })
	f, err := os.Open(rules)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.Stdin = f
	code, out, stderr := runCLI("tune", "-check", "-", "-calibrate", "-", "-nodes", "1,2", "-per-node", "8")
	if code != 2 || !strings.Contains(stderr, "standard input (-) is given for 2 inputs") {
		t.Errorf("tune -check - -calibrate -: exit %d: %s%s; want a usage error", code, out, stderr)
	}
	if code, got := check("-"); code != 0 || got != want {
		t.Errorf("tune -check -: exit %d:\n%s\nwant:\n%s", code, got, want)
	}
}

// TestLogStreamCapture: a capture given where a log is read, as a stream,
// is named a capture as its file is; its bytes were read again, which
// waited forever on a named pipe whose writer had gone (fit FIFO) and
// found a stream empty.
func TestLogStreamCapture(t *testing.T) {
	capture := "../../topo/testdata/dgx_h100_tabs.txt"
	for _, cmd := range []string{"fit", "diagnose", "compare"} {
		fifo := fifoOf(t, capture)
		args := []string{cmd, fifo}
		if cmd == "compare" {
			args = append(args, "../../data/nccltests/testdata/real/h100_1x8_g8_allreduce_voltagepark.log")
		}
		code, _, stderr := runCLI(args...)
		if code == 0 || !strings.Contains(stderr, "it is an nvidia-smi topo -m capture: read it with commlab topo "+fifo) {
			t.Errorf("%v: exit %d: %s; want the capture named", args, code, stderr)
		}
	}
}

// TestCompareStdinTwice: compare reads a name given for both sides once,
// a file, standard input or a pipe, so two tests of one log compare (with
// -test N,M), but two names of one stream are a usage error, as in every
// command ("- /dev/stdin" found the second empty, exit 1). The hint for a log of several tests read from standard
// input names -test where "-" cannot take ":test=K". Not parallel: it sets
// os.Stdin.
func TestCompareStdinTwice(t *testing.T) {
	log := "../../data/nccltests/testdata/real/b200_1x8_g8_five_collectives_aicr_mghpcc.log"
	stdin := os.Stdin
	t.Cleanup(func() { os.Stdin = stdin })
	fifo := fifoOf(t, log)
	other := filepath.Dir(fifo) + "/./" + filepath.Base(fifo)
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"compare", "-test", "1,2", log, log}, 0, []string{"A: " + log + "#1, reducescatter", "B: " + log + "#2, allgather"}},
		{[]string{"compare", "-", log}, 0, []string{"pick another with -test N,M for A's and B's"}},
		{[]string{"compare", "-test", "1,2", "-", "-"}, 0, []string{"A: -#1, reducescatter", "B: -#2, allgather"}},
		{[]string{"compare", "-test", "1,2", fifo, fifo}, 0, []string{"A: " + fifo + "#1, reducescatter", "B: " + fifo + "#2, allgather"}},
		{[]string{"compare", "-test", "1,2", fifo, other}, 2, []string{fifo + " and " + other + " are one stream"}},
	} {
		f, err := os.Open(log)
		if err != nil {
			t.Fatal(err)
		}
		os.Stdin = f
		code, out, stderr := runCLI(c.args...)
		f.Close()
		if code != c.code {
			t.Errorf("%v: exit %d, want %d: %s", c.args, code, c.code, stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out+stderr, w) {
				t.Errorf("%v: output lacks %q:\n%s%s", c.args, w, stderr, out)
			}
		}
	}
}

// TestStdinDevice: "-" on a terminal (or another device, /dev/zero here)
// is refused at once with how to pipe a file in, where a terminal would
// wait silently; /dev/null reads as empty. Not parallel: it sets os.Stdin.
func TestStdinDevice(t *testing.T) {
	stdin := os.Stdin
	t.Cleanup(func() { os.Stdin = stdin })
	for dev, want := range map[string]string{
		"/dev/zero": "-: standard input is a terminal or a device, not a file or a pipe: pipe the file into the command",
		os.DevNull:  "standard input (-) gave nothing",
	} {
		f, err := os.Open(dev)
		if err != nil {
			t.Skipf("%s: %v", dev, err)
		}
		os.Stdin = f
		code, _, stderr := runCLI("diagnose", "-")
		f.Close()
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("diagnose - < %s: exit %d, %q; want 1 and %q", dev, code, stderr, want)
		}
	}
}

// TestStreamTwice: a named pipe given for two inputs is a usage error, as
// standard input is: its second open would wait for a writer gone (red
// team: diagnose PIPE -calibrate PIPE hung). A file given twice is read
// twice.
func TestStreamTwice(t *testing.T) {
	const log = "../../data/nccltests/testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log"
	for _, args := range [][]string{
		{"diagnose", "PIPE", "-calibrate", "PIPE"},
		{"predict", "-calibrate", "PIPE,PIPE", "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1MiB"},
		{"plot", "PIPE", "-calibrate", "PIPE", "-o", filepath.Join(t.TempDir(), "x.svg")},
	} {
		fifo := fifoOf(t, log)
		for i := range args {
			args[i] = strings.ReplaceAll(args[i], "PIPE", fifo)
		}
		if code, _, stderr := runCLI(args...); code != 2 || !strings.Contains(stderr, fifo+" and "+fifo+" are one stream") {
			t.Errorf("%v: exit %d, %s; want 2 and the pipe named", args, code, stderr)
		}
	}
	// One pipe by two names.
	fifo := fifoOf(t, log)
	other := filepath.Dir(fifo) + "/./" + filepath.Base(fifo)
	if code, _, stderr := runCLI("predict", "-calibrate", fifo+","+other, "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1MiB"); code != 2 || !strings.Contains(stderr, fifo+" and "+other+" are one stream") {
		t.Errorf("one pipe as %s and %s: exit %d, %s; want 2 and both named", fifo, other, code, stderr)
	}
	if code, _, stderr := runCLI("diagnose", log, "-calibrate", log); code != 0 {
		t.Errorf("a file given twice: exit %d, %s", code, stderr)
	}
}
