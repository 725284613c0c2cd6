package topo

import (
	"errors"
	"os"
	"testing"
)

// TestSecondMatrix: two captures pasted into one file (red team 38) read
// as the first, with a warning (ErrSecondMatrix) at the second's header,
// and the first's NICs keep their names from its own legend, not the
// second's.
func TestSecondMatrix(t *testing.T) {
	a, err := os.ReadFile("testdata/dgx_a100_nps4.txt")
	if err != nil {
		t.Fatal(err)
	}
	b := "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\n" +
		"GPU0\t X \tSYS\tSYS\t0-15\t0\n" +
		"GPU1\tSYS\t X \tPHB\t16-31\t1\n" +
		"NIC0\tSYS\tPHB\t X \n\nNIC Legend:\n\n  NIC0: eth_other\n"
	one, _, err := ParseString(string(a))
	if err != nil {
		t.Fatal(err)
	}
	two, problems, err := ParseString(string(a) + "\n" + b)
	if err != nil {
		t.Fatal(err)
	}
	if len(two.GPUs()) != len(one.GPUs()) || len(two.NICs()) != len(one.NICs()) {
		t.Errorf("%d GPUs and %d NICs, want the first capture's %d and %d", len(two.GPUs()), len(two.NICs()), len(one.GPUs()), len(one.NICs()))
	}
	if n0, _ := two.Lookup("NIC0"); n0.Device != "mlx5_0" {
		t.Errorf("NIC0 is %q, want the first legend's mlx5_0", n0.Device)
	}
	lines := 1
	for _, c := range a {
		if c == '\n' {
			lines++
		}
	}
	if len(problems) != 1 || !errors.Is(problems[0], ErrSecondMatrix) || problems[0].Line != lines+1 {
		t.Errorf("problems %v; want ErrSecondMatrix at line %d", problems, lines+1)
	}
	// The header's line alone after a matrix, with no rows under it, is
	// no second matrix.
	if _, problems, err := ParseString(string(a) + "\nGPU0 GPU1\n"); err != nil || len(problems) != 0 {
		t.Errorf("a lone header line after the matrix: %v, %v", problems, err)
	}
}
