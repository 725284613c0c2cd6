package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The command line links no notebook kernel: the figures and the article's
// exhibits it needs are packages figure and article, and only
// notebooks/nbshow imports GoNB.
func TestNoNotebookKernel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go is not on PATH: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	// The list is this command's: it holds the article's exhibits, which
	// "commlab reproduce" writes.
	if !slices.Contains(deps, "github.com/inframethod/commlab/article") {
		t.Fatalf("go list -deps names no github.com/inframethod/commlab/article among %d packages", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/janpfeifer/gonb") || strings.Contains(d, "/notebooks/") {
			t.Errorf("cmd/commlab depends on %s", d)
		}
	}
}
