package data

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/internal/golden"
)

// TestGolden reads the embedded tidy CSV datasets with ReadFile and compares
// the tests it groups them into with testdata/golden/*.golden (go test
// -update rewrites them). The nccl-tests logs have theirs in
// nccltests/testdata/golden.
func TestGolden(t *testing.T) {
	for _, f := range []string{"article_h20.csv", "kernels_public.csv"} {
		t.Run(f, func(t *testing.T) {
			l, err := ReadFile(f, nil)
			got := golden.Summary(nil, nil, err)
			if err == nil {
				got = "format: " + l.Format.String() + "\n" + golden.Summary(l.Tests, l.Problems, nil)
			}
			name := strings.ReplaceAll(f, ".", "_")
			golden.Check(t, filepath.Join("testdata", "golden", name+".golden"), got)
		})
	}
}
