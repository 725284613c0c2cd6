package data

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data/nccltests"
)

// TestTestSamples reads the public H20 AlltoAll of nccl-tests 3.21 (data/logs):
// 13 sizes from 0 B, each with both halves, the largest, 4 GiB, at 63946 us
// in place as the log prints it.
func TestTestSamples(t *testing.T) {
	l, err := PublicLog("h20-3e_2x2_alltoall_nccltests321.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	tt := l.Tests[0]
	s := TestSamples(tt, nccltests.InPlace)
	if len(s) != 13 || s[12] != (fit.Sample{Size: 4294967296, Time: 63946e-6}) {
		t.Errorf("in-place samples: %d, last %+v; want 13, {4294967296 0.063946}", len(s), s[len(s)-1])
	}
	if c, ok := Collective(tt); !ok || c != commmodel.AllToAll {
		t.Errorf("collective %v (%v), want alltoall", c, ok)
	}
}

// TestPairedLogsEmbedded checks that the embedded paired logs are the files of
// logs/paired.
func TestPairedLogsEmbedded(t *testing.T) {
	var embedded, disk []string
	if err := fs.WalkDir(PairedLogs(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			embedded = append(embedded, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("logs", "paired")
	if err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			disk = append(disk, filepath.ToSlash(rel))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(embedded, disk) || !slices.Contains(embedded, "MANIFEST.csv") {
		t.Errorf("embedded %v, on disk %v", embedded, disk)
	}
	if _, err := os.Stat(filepath.Join("..", PairedDir)); err != nil {
		t.Errorf("PairedDir: %v", err)
	}
}
