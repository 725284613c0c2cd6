package main

import (
	"fmt"
	"strings"

	"github.com/inframethod/commlab/commmodel"
)

// defaultChunks is the chunk count of a pipeline that must have one and is
// not given one: the pipelined broadcast, and every pipeline commlab
// simulate executes (a fluid limit has no schedule).
const defaultChunks = 8

// algorithmOptions returns the Options for algorithm name of c from the
// flags: the node size, -inter (read only for hierarchical AllReduce, the
// one algorithm that runs it) and the chunk count, defaultChunks for the
// pipelined broadcast when chunks is 0.
func algorithmOptions(c commmodel.Collective, name string, perNode int, inter string, chunks int) (commmodel.Options, error) {
	opt := commmodel.Options{PerNode: perNode, Chunks: chunks}
	name = strings.ToLower(strings.TrimSpace(name))
	if c == commmodel.Broadcast && name == "pipelined" && chunks == 0 {
		opt.Chunks = defaultChunks
	}
	if c != commmodel.AllReduce || name != "hierarchical" || inter == "" || inter == "ring" {
		return opt, nil
	}
	a, err := commmodel.Lookup(commmodel.AllReduce, inter, commmodel.Options{})
	if err != nil || a.Name() == "hierarchical" {
		return opt, fmt.Errorf("inter-node algorithm %q: want ring, halving-doubling, two-shot or one-shot", inter)
	}
	opt.Inter = a
	return opt, nil
}
