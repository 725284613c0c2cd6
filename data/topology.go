package data

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/inframethod/commlab/topo"
)

// topologyFiles holds the `nvidia-smi topo -m`-shaped files of data/topology:
// the source article's server (h20-article, derived from the article, not a
// capture) and public captures, each with its source in a header comment.
//
//go:embed topology/*.txt
var topologyFiles embed.FS

// Topologies lists the names of the embedded topologies (file names without
// .txt), sorted.
func Topologies() []string {
	entries, err := fs.ReadDir(topologyFiles, "topology")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".txt"))
	}
	slices.Sort(out)
	return out
}

// TopologyText returns the text of the embedded topology name (with or without
// the .txt suffix).
func TopologyText(name string) ([]byte, error) {
	file := path.Join("topology", strings.TrimSuffix(name, ".txt")+".txt")
	b, err := topologyFiles.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("data: no topology %q (have %s)", name, strings.Join(Topologies(), ", "))
	}
	return b, nil
}

// Topology parses the embedded topology name (see Topologies). A parse error
// names the file: "topology/NAME.txt: line L, column C: ...".
func Topology(name string) (*topo.Topology, error) {
	b, err := TopologyText(name)
	if err != nil {
		return nil, err
	}
	t, err := topo.ParseString(string(b))
	if err != nil {
		return nil, fmt.Errorf("topology/%s.txt: %w", strings.TrimSuffix(name, ".txt"), err)
	}
	return t, nil
}
