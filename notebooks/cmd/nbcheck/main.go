// Command nbcheck checks executed GoNB notebooks and prints one table row per
// notebook: cells, code cells, images, seconds and status, then each problem.
//
// Usage:
//
//	nbcheck [-format] [-times FILE] [-expect-fail] [-committed DIR] NOTEBOOK.ipynb...
//
// -format checks only the format the notebooks are kept in, executed or not:
// nbformat 4.5 or later, every cell with a valid id that no other cell has
// (scripts/notebooks.sh -check runs it on the committed notebooks).
// -times names a file of "path<TAB>seconds" lines (written by
// scripts/notebooks.sh) whose seconds fill the table's seconds column.
// -committed names the folder of the committed copies: a notebook whose
// outputs differ from its committed copy gets a warning (its committed
// outputs are out of date), without changing the exit status.
// The exit status is 0 when every notebook is clean, 1 when one is not, and 2
// for bad usage or unreadable input. With -expect-fail the sense is inverted:
// every notebook must show at least one problem (the runner uses it on the
// deliberately failing notebooks in notebooks/testdata), and when a notebook's
// metadata lists the kinds it must show ("nbcheck": {"expect": [...]}), it must
// show exactly those.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/inframethod/commlab/notebooks/nbcheck"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("nbcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.Bool("format", false, "check only the format: nbformat >= 4.5, valid and unique cell ids")
	timesFile := fs.String("times", "", "file of `path<TAB>seconds` lines for the seconds column")
	expectFail := fs.Bool("expect-fail", false, "succeed only if every notebook shows a problem")
	committed := fs.String("committed", "", "warn when a notebook's outputs differ from its copy in `DIR`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: nbcheck [-format] [-times FILE] [-expect-fail] [-committed DIR] NOTEBOOK.ipynb...")
		return 2
	}
	times := map[string]float64{}
	if *timesFile != "" {
		var err error
		if times, err = readTimes(*timesFile); err != nil {
			fmt.Fprintln(stderr, "nbcheck:", err)
			return 2
		}
	}
	check := nbcheck.CheckFile
	if *format {
		check = nbcheck.CheckFormatFile
	}
	status, passed, failed := 0, 0, 0
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "notebook\tcells\tcode\timages\tseconds\tstatus\t")
	var details []string
	for _, path := range fs.Args() {
		rep, err := check(path)
		if err != nil {
			fmt.Fprintln(stderr, "nbcheck:", err)
			return 2
		}
		secs := "-"
		if t, ok := times[path]; ok {
			secs = strconv.FormatFloat(t, 'f', 1, 64)
		}
		verdict := "ok"
		if !rep.OK() {
			verdict = fmt.Sprintf("FAIL (%d)", len(rep.Problems))
		}
		if !rep.OK() && !(*expectFail && rep.FailsAsExpected()) {
			for _, p := range rep.Problems {
				details = append(details, fmt.Sprintf("%s: %s", path, p))
			}
		}
		if *expectFail {
			if rep.FailsAsExpected() {
				verdict = "ok (caught: " + joinKinds(rep.Kinds()) + ")"
			} else {
				verdict = fmt.Sprintf("FAIL (want %s, got %s)", joinKinds(rep.Expect), joinKinds(rep.Kinds()))
				status = 1
			}
		} else if !rep.OK() {
			status = 1
		}
		if strings.HasPrefix(verdict, "ok") {
			passed++
		} else {
			failed++
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t\n", filepath.Base(path), rep.Cells, rep.CodeCells, rep.Images, secs, verdict)
	}
	tw.Flush()
	for _, d := range details {
		fmt.Fprintln(stdout, d)
	}
	if *committed != "" {
		for _, path := range fs.Args() {
			warnStale(stdout, filepath.Join(*committed, filepath.Base(path)), path)
		}
	}
	fmt.Fprintf(stdout, "nbcheck: %d passed, %d failed\n", passed, failed)
	return status
}

// warnStale prints a warning when the committed copy's outputs differ from
// the freshly executed ones (outputs are deterministic, so the committed
// notebook is out of date). It never changes the exit status.
func warnStale(w io.Writer, committed, executed string) {
	stale, err := nbcheck.StaleCells(committed, executed)
	switch {
	case err != nil:
		fmt.Fprintf(w, "warning: cannot compare with the committed copy: %v\n", err)
	case len(stale) > 0:
		fmt.Fprintf(w, "warning: %s: cells %v differ from the committed copy; run scripts/notebooks.sh and commit it\n", committed, stale)
	}
}

func joinKinds(ks []nbcheck.Kind) string {
	if len(ks) == 0 {
		return "no problem"
	}
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}

// readTimes reads "path<TAB>seconds" lines; errors give the file and line.
func readTimes(name string) (map[string]float64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	times := map[string]float64{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		path, secs, ok := strings.Cut(line, "\t")
		t, err := strconv.ParseFloat(strings.TrimSpace(secs), 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s:%d: want path<TAB>seconds, got %q", name, n, line)
		}
		times[path] = t
	}
	return times, sc.Err()
}
