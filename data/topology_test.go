package data

import (
	"reflect"
	"slices"
	"testing"

	"github.com/inframethod/commlab/topo"
)

// TestTopologyArticle: the embedded article file is the article's preset.
func TestTopologyArticle(t *testing.T) {
	got, err := Topology("h20-article")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, topo.H20Article()) {
		t.Error("data/topology/h20-article.txt does not parse to topo.H20Article()")
	}
}

// TestTopologiesParse: every embedded topology parses; the public capture has
// 8 GPUs and 8 NICs (its source: NVIDIA/nccl-tests#321).
func TestTopologiesParse(t *testing.T) {
	names := Topologies()
	if !slices.Contains(names, "h20-article") || !slices.Contains(names, "h20-3e_8gpu_8nic_vm") {
		t.Fatalf("Topologies() = %v", names)
	}
	for _, n := range names {
		top, err := Topology(n)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if n == "h20-3e_8gpu_8nic_vm" && (len(top.GPUs()) != 8 || len(top.NICs()) != 8) {
			t.Errorf("%s: %d GPUs, %d NICs, want 8 and 8", n, len(top.GPUs()), len(top.NICs()))
		}
	}
	if _, err := Topology("no-such"); err == nil {
		t.Error("Topology(no-such) succeeded")
	}
}
