package topo

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; it returns a *ParseError alone, or a
// topology with problems that are *ParseErrors with a line and a warning's
// cause (ErrShortRow, ErrAsymmetric, ErrNoLegend, ErrLegendDevice,
// ErrMissingRow for a NIC, ErrCutHeader, ErrSecondMatrix, ErrNUMASpan),
// sorted; a topology it returns is consistent (X exactly on the diagonal,
// symmetric) and every query and the report run on it; a topology read
// without problems survives Format and Parse unchanged in what Format keeps
// (sameWritten), without problems, or Format refuses it with ErrFormat,
// which it does not for one whose names are the standard GPU<n>/NIC<n>. The seed corpus
// is testdata/fuzz/FuzzParse (fixtures and broken variants), the golden
// inputs, the damaged captures of testdata/damaged and the ROCm tables of
// testdata/rocm, each without its comment lines and the legend of path
// types (cutCapture).
func FuzzParse(f *testing.F) {
	rocm, err := filepath.Glob("testdata/rocm/*.txt")
	if err != nil || len(rocm) == 0 {
		f.Fatalf("testdata/rocm: %v, %d files", err, len(rocm))
	}
	for _, in := range slices.Concat(goldenInputs(f), damagedInputs(f), rocm) {
		b, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(cutCapture(string(b)))
	}
	f.Fuzz(func(t *testing.T, text string) {
		top, problems, err := ParseString(text)
		if err != nil {
			var pe *ParseError
			whole := errors.Is(err, ErrNoMatrix) || errors.Is(err, ErrTooLarge)
			if !errors.As(err, &pe) || (pe.Line < 1 && !whole) || top != nil || problems != nil {
				t.Fatalf("error %v is not a *ParseError with a line, alone", err)
			}
			return
		}
		for k, p := range problems {
			warning := errors.Is(p, ErrShortRow) || errors.Is(p, ErrAsymmetric) || errors.Is(p, ErrNoLegend) || errors.Is(p, ErrLegendDevice) || errors.Is(p, ErrStrayLegend) || errors.Is(p, ErrMissingRow) || errors.Is(p, ErrCutHeader) || errors.Is(p, ErrSecondMatrix) || errors.Is(p, ErrNUMASpan)
			if p.Line < 1 || !warning {
				t.Fatalf("problem %v: want a line and a warning's cause (ErrShortRow, ErrAsymmetric, ErrNoLegend, ErrLegendDevice, ErrStrayLegend, ErrMissingRow, ErrCutHeader, ErrSecondMatrix, ErrNUMASpan)", p)
			}
			if errors.Is(p, ErrLegendDevice) && top.IBHCA().Value != "" {
				t.Fatalf("problem %v, yet NCCL_IB_HCA %q", p, top.IBHCA().Value)
			}
			if k > 0 && (p.Line < problems[k-1].Line || p.Line == problems[k-1].Line && p.Column < problems[k-1].Column) {
				t.Fatalf("problems out of order: %v before %v", problems[k-1], p)
			}
		}
		all := top.devices()
		for _, a := range all {
			for _, b := range all {
				p, q := top.Path(a, b), top.Path(b, a)
				if p != q || (p.Class == Self) != (a.Name == b.Name) {
					t.Fatalf("%s/%s = %v, %s/%s = %v", a.Name, b.Name, p, b.Name, a.Name, q)
				}
			}
		}
		top.Bindings()
		top.Rails(2)
		InferFabric(top)
		FabricNotes(top)
		DescribeFabric(top)
		if err := WriteReport(io.Discard, top); err != nil {
			t.Fatal(err)
		}
		if len(problems) > 0 {
			return // damage read past is not written back: no round trip
		}
		var buf bytes.Buffer
		if err := Format(&buf, top); err != nil {
			// A label Parse reads (a NIC headed "a:b") that Format cannot
			// write back as one: refused, with nothing written.
			if !errors.Is(err, ErrFormat) || buf.Len() != 0 {
				t.Fatalf("Format: %v after %d bytes; want ErrFormat and nothing written", err, buf.Len())
			}
			if standard(all) {
				t.Fatalf("Format refuses a topology of GPU<n> and NIC<n> read without problems: %v", err)
			}
			return
		}
		back, problems, err := Parse(&buf)
		if err != nil || problems != nil {
			t.Fatalf("Format output does not parse cleanly: %v %v\n%s", err, problems, buf.String())
		}
		if diff := sameWritten(top, back); diff != "" {
			t.Fatalf("round trip: %s\n%s", diff, buf.String())
		}
	})
}

// standard reports whether every device is named GPU<n> or NIC<n>.
func standard(all []Device) bool {
	for _, d := range all {
		if !(gpuName.MatchString(d.Name) || nicLabel.MatchString(d.Name)) {
			return false
		}
	}
	return true
}

// cutCapture cuts a capture to a smaller fuzz seed of the same format: its
// lines that start with '#' and the legend of path types (from "Legend:" to
// the NIC legend or the end) go, the matrix and the NIC legend stay. Go's
// minimiser takes time quadratic in an input's length.
func cutCapture(s string) string {
	var b strings.Builder
	legend := false
	for _, line := range strings.SplitAfter(s, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "Legend:":
			legend = true
		case strings.HasPrefix(t, "NIC Legend"):
			legend = false
		}
		if !legend && !strings.HasPrefix(t, "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// BenchmarkParse parses the public H20-3e capture (NVIDIA/nccl-tests#321).
func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile("../data/topology/h20-3e_8gpu_8nic_vm.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(bytes.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}
