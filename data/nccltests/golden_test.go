package nccltests_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/internal/golden"
	"github.com/inframethod/commlab/data/nccltests"
)

// readFile reads the tests of the file at path, named name.
func readFile(path, name string) ([]*nccltests.Test, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := nccltests.NewReader(f)
	r.Name = name
	tests, err := r.ReadAll()
	return tests, r.Problems(), err
}

// TestGolden reads the public logs of package data, every hand-made fixture
// of each output generation, every real log, every bad file, the JSON
// outputs of testdata/json and the CSV outputs of testdata/csv, and compares
// what it got with testdata/golden/*.golden (go test -update rewrites them).
func TestGolden(t *testing.T) {
	var files []string
	for _, pat := range []string{"../logs/*.log", "testdata/*.log", "testdata/bad/*.log", "testdata/real/*.log", "testdata/json/*.json", "testdata/csv/*.csv"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 15 {
		t.Fatalf("found %d input files; the public logs or fixtures are missing", len(files))
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			name := strings.TrimPrefix(f, "../") // package data's logs as data names them
			stem := strings.NewReplacer("/", "_", ".", "_").Replace(name)
			golden.Check(t, filepath.Join("testdata", "golden", stem+".golden"), golden.Summary(readFile(f, name)))
		})
	}
}
