package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestRepeatedFlag: a flag given twice is a usage error (exit 2) that names
// it, both values and how to give them in one, where the flag package
// kept the last value and dropped the first without a word (red team rt2
// F11: -hw links=4 -hw nvls=false predicted with 18 links). A list flag's
// hint joins the values, and the joined command line runs.
func TestRepeatedFlag(t *testing.T) {
	t.Parallel()
	hw := filepath.Join(t.TempDir(), "host.hw")
	if err := os.WriteFile(hw, []byte("links=4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	predict := []string{"predict", "-gpu", "H100", "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1MiB"}
	for _, c := range []struct {
		args []string
		want string
		// works is the command line the hint names, which runs (exit 0).
		works []string
	}{
		{append(slices.Clone(predict), "-hw", "links=4", "-hw", "nvls=false"),
			"-hw given twice (links=4, then nvls=false): give it once, the values joined by commas: -hw links=4,nvls=false",
			append(slices.Clone(predict), "-hw", "links=4,nvls=false")},
		{append(slices.Clone(predict), "-hw", hw, "-hw", "nvls=false"),
			"give it once, a file or KEY=VALUE pairs joined by commas, such as -hw links=4,nvls=false", nil},
		{[]string{"predict", "-calibrate", ringLog, "-calibrate", nvlsLog, "-collective", "allreduce", "-p", "8", "-size", "1MiB"},
			"-calibrate given twice (" + ringLog + ", then " + nvlsLog + "): give it once, the values joined by commas: -calibrate " + ringLog + "," + nvlsLog, nil},
		{[]string{"model", "-p", "8", "-link", "h20-intra", "-size", "1KiB", "-size", "1MiB"},
			"-size given twice (1KiB, then 1MiB): give it once, the values joined by commas: -size 1KiB,1MiB",
			[]string{"model", "-p", "8", "-link", "h20-intra", "-size", "1KiB,1MiB"}},
		{[]string{"model", "-p", "8", "-p", "16", "-link", "h20-intra", "-size", "1KiB"}, "-p given twice (8, then 16): give it once", nil},
		// After a positional argument, as parseFlags reads flags anywhere.
		{[]string{"fit", ringLog, "-loss", "huber", "-loss", "squared"}, "-loss given twice (huber, then squared): give it once", nil},
		{[]string{"tune", "-comms", "1x8", "-o", "-", "-comms", "2x8"}, "-comms 1x8,2x8", nil},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
		if c.works != nil {
			if code, _, stderr := runCLI(c.works...); code != 0 {
				t.Errorf("the hint %q: exit %d, %s", c.works, code, stderr)
			}
		}
	}
	// A boolean given twice says what it says once.
	if code, _, stderr := runCLI("model", "-p", "8", "-link", "h20-intra", "-size", "1KiB", "-json", "-json"); code != 0 {
		t.Errorf("-json -json: exit %d, %s", code, stderr)
	}
}

// TestRepeatedFlagEverywhere: every subcommand refuses each of its flags
// but the booleans given twice, as its -h lists them ("  -NAME TYPE").
func TestRepeatedFlagEverywhere(t *testing.T) {
	t.Parallel()
	flagLine := regexp.MustCompile(`(?m)^  -(\S+) \S`)
	for name := range commands {
		_, help, _ := runCLI(name, "-h")
		for _, m := range flagLine.FindAllStringSubmatch(help, -1) {
			f := m[1]
			code, _, stderr := runCLI(name, "-"+f, "a", "-"+f, "b")
			if want := "-" + f + " given twice (a, then b)"; code != 2 || !strings.Contains(stderr, want) {
				t.Errorf("%s -%s a -%s b: exit %d, %q; want 2 and %q", name, f, f, code, stderr, want)
			}
		}
	}
}

// TestPlotSideUnit: -width and -height want their unit; a bare number,
// which vg.ParseLength reads as points (-width 7 drew a PNG 29 pixels
// wide, red team rt2 F7), is a usage error. The line that says what was
// written gives the size to three digits (18cm is 7.09in).
func TestPlotSideUnit(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "fig.svg")
	for _, c := range []struct {
		width string
		code  int
		want  string
	}{
		{"7", 2, `-width "7": missing unit, such as 7in, 18cm or 500pt`},
		{"-3in", 2, `-width "-3in": want a positive length with its unit, such as 7in, 18cm or 500pt`},
		{"18cm", 0, "wrote " + out + " (7.09in x 4.5in)"},
		{"7 in", 0, "wrote " + out + " (7in x 4.5in)"},
	} {
		code, stdout, stderr := runCLI("plot", h200Log, "-o", out, "-width", c.width, "-marks", "none")
		if code != c.code || !strings.Contains(stdout+stderr, c.want) {
			t.Errorf("-width %q: exit %d, %q; want %d and %q", c.width, code, firstLine(stdout+stderr), c.code, c.want)
		}
	}
}

// TestLinkBoundsMessage: a link out of bounds is refused with the value
// as given and the bounds as the parser reads them (it said 1 PB/s, which
// the parser refuses, and echoed 1001TB/s as 1000 TB/s: red team rt2 F8);
// the bounds themselves are taken.
func TestLinkBoundsMessage(t *testing.T) {
	t.Parallel()
	base := []string{"model", "-p", "8", "-size", "1MiB", "-algo", "ring"}
	for _, c := range []struct {
		flags []string
		code  int
		want  string
	}{
		{[]string{"-alpha", "2us", "-bw", "1001TB/s"}, 2, "-alpha 2us -bw 1001TB/s: want a bandwidth of 1 B/s to 1000 TB/s, such as 350GB/s"},
		{[]string{"-alpha", "2us", "-bw", "0.5B/s"}, 2, "-bw 0.5B/s: want a bandwidth of 1 B/s to 1000 TB/s"},
		{[]string{"-intra", "2us,1001TB/s", "-inter", "15us,50GB/s", "-per-node", "4"}, 2, "-intra 2us,1001TB/s: want a bandwidth of 1 B/s to 1000 TB/s"},
		{[]string{"-alpha", "3601s", "-bw", "1GB/s"}, 2, "want a latency of 0 s to 3600 s, such as 2us"},
		{[]string{"-link", "h20-intra", "-gamma", "2s/B"}, 2, "-gamma 2s/B: want a reduction time of 0 s/B to 1 s/B"},
		// The bounds as the messages write them.
		{[]string{"-alpha", "3600 s", "-bw", "1000 TB/s"}, 0, ""},
		{[]string{"-alpha", "0 s", "-bw", "1 B/s"}, 0, ""},
		{[]string{"-link", "h20-intra", "-gamma", "1 s/B"}, 0, ""},
	} {
		code, _, stderr := runCLI(append(slices.Clone(base), c.flags...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.flags, code, firstLine(stderr), c.code, c.want)
		}
	}
}

// TestDiagnoseProblemsEmpty: diagnose's JSON gives "problems": [] for a
// table without any, as every command does, not null (red team rt2 F12).
func TestDiagnoseProblemsEmpty(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("diagnose", "../../data/logs/paired/a100-sxm4-abci-ib4xhdr/broadcast_2x8.log", "-format", "json")
	if code != 0 || !strings.Contains(out, `"problems": []`) {
		t.Errorf("exit %d, %s; want 0 and \"problems\": []", code, stderr)
	}
}

// TestReproduceOwnFolder: reproduce writes into a new or empty folder, or
// one it wrote before (its README.md index marks it, written first), and
// refuses any other, which it wrote 73 files into (a repository's docs/,
// replacing same-named files: red team rt2 F10), with a usage error that
// names a free folder below it, which works. It writes -short's two
// exhibits (not parallel: it sets exhibits while no other test runs).
func TestReproduceOwnFolder(t *testing.T) {
	built := exhibits
	t.Cleanup(func() { exhibits = built })
	exhibits = modelExhibits
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	if err := os.Mkdir(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(notes, "00-allreduce-table.md")
	if err := os.WriteFile(mine, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("reproduce", "-o", notes)
	free := filepath.Join(notes, "exhibits")
	if want := "-o " + notes + ": holds 00-allreduce-table.md and no index of commlab reproduce, whose files it would replace: give a new or empty folder, such as -o " + free; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %q; want 2 and %q", code, stderr, want)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "keep\n" {
		t.Errorf("the user's file now %q (%v)", b, err)
	}
	// The folder named, then again (its own), then an empty one.
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{free, free, empty} {
		if code, _, stderr := runCLI("reproduce", "-o", out); code != 0 {
			t.Errorf("-o %s: exit %d, %s", out, code, stderr)
		}
	}
	if got := freeFolder(notes); got != filepath.Join(notes, "exhibits-2") {
		t.Errorf("freeFolder beside exhibits: %s", got)
	}
}

// TestOutputMissingFolder: an -o in a folder that does not exist names the
// folder, not the temporary file written first (red team rt2 m7).
func TestOutputMissingFolder(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "nodir")
	out := filepath.Join(dir, "fig.svg")
	code, _, stderr := runCLI("plot", h200Log, "-o", out, "-marks", "none")
	if want := out + ": the folder " + dir + " does not exist: create it first (mkdir -p " + dir + ")"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %q; want 1 and %q", code, stderr, want)
	}
}

// TestMinorFlagErrors: a negative -test is a usage error in diagnose, plot
// and fit, as in compare (it exited 1 saying the log lacks test -1);
// compare's -floor above 1 is refused with the fraction a percent means
// (-floor 5 meant 500%); model, crossover and simulate refuse -p 1 as
// predict does (they printed 0 s rows), naming -p 2, which works (red team
// rt2 m3, m5, m6).
func TestMinorFlagErrors(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "fig.svg")
	for _, c := range []struct {
		args []string
		want string
		// works is the command line the hint names, which runs (exit 0).
		works []string
	}{
		{[]string{"diagnose", ringLog, "-test", "-1"}, "-test -1: want a test's index, counted from 0, such as -test 0",
			[]string{"diagnose", ringLog, "-test", "0"}},
		{[]string{"plot", ringLog, "-o", out, "-test", "-1"}, "-test -1: want a test's index, counted from 0, such as -test 0", nil},
		{[]string{"fit", ringLog, "-test", "-1"}, "-test -1: want a test's index, counted from 0, or all, such as -test 0", nil},
		{[]string{"compare", ringLog, nvlsLog, "-floor", "5"}, "-floor 5: want a fraction of the time, at most 1 (a difference of 2x); for 5% give -floor 0.05",
			[]string{"compare", ringLog, nvlsLog, "-floor", "0.05"}},
		// Beyond a percent, the hint names the default, which works (a
		// review: inf named -floor +Inf, 1e308 -floor 1e+306, refused).
		{[]string{"compare", ringLog, nvlsLog, "-floor", "inf"}, "-floor +Inf: want a fraction of the time, at most 1 (a difference of 2x); such as 0.05",
			[]string{"compare", ringLog, nvlsLog, "-floor", "0.05"}},
		{[]string{"compare", ringLog, nvlsLog, "-floor", "1e308"}, "-floor 1e+308: want a fraction of the time, at most 1 (a difference of 2x); such as 0.05", nil},
		{[]string{"compare", ringLog, nvlsLog, "-floor", "1.0000001"}, "for 1.0000001% give -floor 0.01\n",
			[]string{"compare", ringLog, nvlsLog, "-floor", "0.01"}},
		{[]string{"model", "-p", "1", "-link", "h20-intra", "-size", "1MiB"}, "-p 1: one rank exchanges nothing", []string{"model", "-p", "2", "-link", "h20-intra", "-size", "1MiB"}},
		{[]string{"crossover", "-p", "1", "-link", "h20-intra"}, "give -p 2 or more", []string{"crossover", "-p", "2", "-link", "h20-intra"}},
		{[]string{"simulate", "-p", "1", "-algo", "ring", "-size", "1MiB"}, "give -p 2 or more", []string{"simulate", "-p", "2", "-algo", "ring", "-size", "1MiB"}},
		{[]string{"model", "-p", "1", "-server", "dgx-h100", "-size", "1MiB"}, "give -p 2 or more", nil},
	} {
		code, _, stderr := runCLI(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, firstLine(stderr), c.want)
		}
		if c.works != nil {
			if code, _, stderr := runCLI(c.works...); code != 0 {
				t.Errorf("the hint %q: exit %d, %s", c.works, code, stderr)
			}
		}
	}
}
