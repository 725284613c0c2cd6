package data

import (
	"bytes"
	"embed"
	"fmt"
	"io"
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
	b, err := topologyFiles.ReadFile(topologyFile(name))
	if err != nil {
		return nil, fmt.Errorf("data: no topology %q (have %s)", name, strings.Join(Topologies(), ", "))
	}
	return b, nil
}

// Topology parses the embedded topology name (see Topologies). A parse error
// is a *topo.ParseError naming the file ("topology/NAME.txt:LINE:COLUMN: ...");
// so is a warning, since every embedded file must read cleanly.
func Topology(name string) (*topo.Topology, error) {
	b, err := TopologyText(name)
	if err != nil {
		return nil, err
	}
	t, problems, err := topo.Parse(namedReader{bytes.NewReader(b), topologyFile(name)})
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, problems[0]
	}
	return t, nil
}

// topologyFile is the embedded file of the topology name.
func topologyFile(name string) string {
	return path.Join("topology", strings.TrimSuffix(name, ".txt")+".txt")
}

// namedReader is a reader with the name topo.Parse puts in its errors.
type namedReader struct {
	io.Reader
	name string
}

// Name returns the reader's name.
func (r namedReader) Name() string { return r.name }
