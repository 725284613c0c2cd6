package topo

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
)

// FuzzParse: Parse never panics; it returns a topology or a *ParseError; a
// topology it returns is consistent (X exactly on the diagonal, symmetric)
// and every query and the report run on it; a topology whose names are the
// standard GPU<n>/NIC<n> survives Format and Parse unchanged in its paths.
// The seed corpus is testdata/fuzz/FuzzParse (fixtures and broken variants).
func FuzzParse(f *testing.F) {
	for _, in := range goldenInputs(f) {
		b, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, text string) {
		top, err := ParseString(text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error %v is not a *ParseError with a line", err)
			}
			return
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
		if err := WriteReport(io.Discard, top); err != nil {
			t.Fatal(err)
		}
		for _, d := range all {
			if !(gpuName.MatchString(d.Name) || nicLabel.MatchString(d.Name)) {
				return
			}
		}
		var buf bytes.Buffer
		if err := Format(&buf, top); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&buf)
		if err != nil {
			t.Fatalf("Format output does not parse: %v\n%s", err, buf.String())
		}
		for _, a := range all {
			for _, b := range all {
				if p, q := top.Path(a, b), back.Path(a, b); p != q {
					t.Fatalf("round trip changed %s/%s from %v to %v", a.Name, b.Name, p, q)
				}
			}
		}
	})
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
		if _, err := Parse(bytes.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}
