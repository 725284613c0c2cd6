// Package testlogs lists and reads the repository's public nccl-tests and
// rccl-tests logs for the tests that measure something over all of them.
package testlogs

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/inframethod/commlab/data/nccltests"
)

// Files returns the logs of data/logs, of its paired machines
// (data/logs/paired/*) and of data/nccltests/testdata/real, given the
// module's root as a path from the caller's directory ("../..").
func Files(root string) ([]string, error) {
	var files []string
	for _, pat := range []string{"data/logs/*.log", "data/logs/paired/*/*.log", "data/nccltests/testdata/real/*.log"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		return nil, errors.New("testlogs: no log under " + root)
	}
	return files, nil
}

// Tests reads the tables of every log of files, in order: a log's tables up
// to the first it cannot read.
func Tests(files []string) ([]nccltests.Test, error) {
	var out []nccltests.Test
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		r := nccltests.NewReader(fh)
		for {
			t, err := r.Read()
			if err != nil { // io.EOF, or a table it cannot read
				break
			}
			out = append(out, *t)
		}
		fh.Close()
	}
	return out, nil
}

// All reads the tables of every log Files lists under root.
func All(root string) ([]nccltests.Test, error) {
	files, err := Files(root)
	if err != nil {
		return nil, err
	}
	return Tests(files)
}
