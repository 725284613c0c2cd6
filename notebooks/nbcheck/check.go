package nbcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Kind names one class of problem found in an executed notebook.
type Kind string

// The problems Check reports.
const (
	ErrorOutput Kind = "error-output" // an output of type "error" (an exception the kernel raised)
	Panic       Kind = "panic"        // a stderr line containing "panic:" (a Go runtime panic)
	ExitStatus  Kind = "exit-status"  // a stderr line "exit status N": a failed program or "!" command
	NotExecuted Kind = "not-executed" // a code cell with source but no execution count
	NoImage     Kind = "no-image"     // the notebook has no image/png output at all
)

// Problem is one thing wrong with an executed notebook.
type Problem struct {
	Cell int    // index of the cell in the notebook, from 0; -1 for the whole notebook
	Kind Kind   // what class of problem
	Text string // the offending output line, or a description
}

func (p Problem) String() string {
	if p.Cell < 0 {
		return fmt.Sprintf("%s: %s", p.Kind, p.Text)
	}
	return fmt.Sprintf("cell %d: %s: %s", p.Cell, p.Kind, p.Text)
}

// Report summarises one executed notebook.
type Report struct {
	Cells     int       // number of cells of any type
	CodeCells int       // number of code cells
	Images    int       // number of outputs carrying image/png data
	Problems  []Problem // empty when the notebook ran cleanly

	// Expect lists the kinds of problem the notebook is meant to show, from
	// its metadata "nbcheck": {"expect": [...]}; set only in the deliberately
	// failing notebooks of notebooks/testdata.
	Expect []Kind
}

// Kinds returns the distinct kinds among the problems, in order of first appearance.
func (r Report) Kinds() []Kind {
	var ks []Kind
	for _, p := range r.Problems {
		if !slices.Contains(ks, p.Kind) {
			ks = append(ks, p.Kind)
		}
	}
	return ks
}

// FailsAsExpected reports whether a deliberately failing notebook failed the
// way its metadata says: at least one problem, and exactly the kinds listed
// in Expect (any kinds when Expect is empty).
func (r Report) FailsAsExpected() bool {
	if r.OK() {
		return false
	}
	if len(r.Expect) == 0 {
		return true
	}
	got, want := r.Kinds(), slices.Clone(r.Expect)
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, slices.Compact(want))
}

// OK reports whether no problem was found.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// ErrFormat is wrapped by the errors Check returns for input that is not an
// nbformat 4 notebook.
var ErrFormat = errors.New("not an nbformat 4 notebook")

var (
	panicLine = regexp.MustCompile(`panic:`)
	exitLine  = regexp.MustCompile(`exit status -?[0-9]+`)
)

// Check reads one executed notebook and reports its problems. It returns an
// error wrapping ErrFormat when r does not hold an nbformat 4 notebook.
func Check(r io.Reader) (Report, error) {
	nb, err := decode(r)
	if err != nil {
		return Report{}, err
	}
	rep := newReport(nb)
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		if c.ExecutionCount == nil && strings.TrimSpace(string(c.Source)) != "" {
			rep.Problems = append(rep.Problems, Problem{i, NotExecuted, firstLine(string(c.Source))})
		}
		for _, o := range c.Outputs {
			rep.Problems = append(rep.Problems, outputProblems(i, o)...)
		}
	}
	if rep.Images == 0 {
		rep.Problems = append(rep.Problems, Problem{-1, NoImage, "no image/png output in any cell"})
	}
	return rep, nil
}

// decode reads an nbformat 4 notebook; errors wrap ErrFormat.
func decode(r io.Reader) (notebook, error) {
	var nb notebook
	if err := json.NewDecoder(r).Decode(&nb); err != nil {
		return notebook{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if nb.NBFormat != 4 {
		return notebook{}, fmt.Errorf("%w: nbformat is %d", ErrFormat, nb.NBFormat)
	}
	return nb, nil
}

// newReport returns the counts of a report on nb, without problems.
func newReport(nb notebook) Report {
	rep := Report{Cells: len(nb.Cells), Expect: nb.Metadata.NBCheck.Expect}
	for _, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		rep.CodeCells++
		for _, o := range c.Outputs {
			if _, ok := o.Data["image/png"]; ok {
				rep.Images++
			}
		}
	}
	return rep
}

// outputProblems returns the problems one output of cell i shows.
func outputProblems(i int, o output) []Problem {
	var ps []Problem
	switch {
	case o.OutputType == "error":
		ps = append(ps, Problem{i, ErrorOutput, firstLine(o.EName + ": " + o.EValue)})
	case o.OutputType == "stream" && o.Name == "stderr":
		for _, line := range strings.Split(string(o.Text), "\n") {
			switch {
			case panicLine.MatchString(line):
				ps = append(ps, Problem{i, Panic, strings.TrimSpace(line)})
			case exitLine.MatchString(line):
				ps = append(ps, Problem{i, ExitStatus, strings.TrimSpace(line)})
			}
		}
	}
	return ps
}

// CheckFile is Check on the named file; errors name the file.
func CheckFile(path string) (Report, error) {
	return checkFile(path, Check)
}

func checkFile(path string, check func(io.Reader) (Report, error)) (Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Report{}, err
	}
	rep, err := check(bytes.NewReader(b))
	if err != nil {
		return Report{}, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	return s
}
