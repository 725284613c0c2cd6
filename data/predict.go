package data

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data/nccltests"
)

// Pins are what a run set that its log may not print, for a predict.Table:
// each non-zero field overrides what the log says.
type Pins struct {
	// Algo and Proto are NCCL_ALGO and NCCL_PROTO as the run set them
	// ("ring", "^NVLS", "LL128"); "" and "auto" mean the tuner chose.
	Algo, Proto string
	// Version is the NCCL release.
	Version nccl.Version
	// Nodes and PerNode are the hosts and GPUs per host.
	Nodes, PerNode int
	// GPUsPerThread is nccl-tests' -g.
	GPUsPerThread int
	// GPU replaces the Rank lines' GPU name.
	GPU string
}

// Lines that say how a test ran, before its first row: nccl-tests' header
// ("# nThread 1 nGpus 8 minBytes ..."), its version line
// ("nccl-library=22602"), and NCCL's INFO lines ("NCCL INFO NCCL_ALGO set
// by environment to Ring", "NCCL version 2.21.5+cuda12.4").
var (
	nGPUsRE   = regexp.MustCompile(`nThread\s+\d+\s+nGpus\s+(\d+)`)
	libraryRE = regexp.MustCompile(`nccl-library=(\d+)`)
	versionRE = regexp.MustCompile(`NCCL version (\d+\.\d+\.\d+)`)
	envRE     = regexp.MustCompile(`(NCCL_ALGO|NCCL_PROTO) set by environment to (\S+)`)
)

// PredictTables reads the nccl-tests log at path and returns a
// predict.Table for every test whose collective the model predicts, named
// "file#index" after its place in the file. From the lines before each
// test's first row it takes the GPUs one thread drives (nGpus), the NCCL
// version and NCCL_ALGO/NCCL_PROTO when NCCL printed them; pins(i), when
// pins is not nil, overrides them for test i. A test without a known
// collective (sendrecv, reduce) or node count, or without a sized row, is
// left out with a problem; problems also hold the reader's.
func PredictTables(path string, pins func(test int) Pins) ([]predict.Table, []error, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return predictTables(b, path, pins)
}

// predictTables is PredictTables on the file's contents b, named path.
func predictTables(b []byte, path string, pins func(test int) Pins) ([]predict.Table, []error, error) {
	l, err := readMeasurements(b, path, nil)
	if err != nil {
		return nil, nil, err
	}
	lines := bytes.Split(b, []byte("\n"))
	problems := append([]error(nil), l.Problems...)
	var out []predict.Table
	from := 0
	for i, t := range l.Tests {
		to := t.Rows[0].Line - 1 // 0-based index of the first row
		var pin Pins
		if pins != nil {
			pin = pins(i)
		}
		tab, err := predictTable(t, lines[from:max(to, from)], pin)
		from = t.Rows[len(t.Rows)-1].Line
		if err != nil {
			problems = append(problems, &nccltests.ParseError{File: path, Line: t.Line, Err: err})
			continue
		}
		tab.Name = fmt.Sprintf("%s#%d", filepath.Base(path), i)
		out = append(out, tab)
	}
	return out, problems, nil
}

// predictTable builds the table of t from the lines before its rows.
func predictTable(t *nccltests.Test, head [][]byte, pin Pins) (predict.Table, error) {
	tab := predict.Table{GPU: t.System, Collective: t.Collective, Nodes: t.Nodes}
	for _, line := range head {
		s := string(line)
		if m := nGPUsRE.FindStringSubmatch(s); m != nil {
			tab.GPUsPerThread, _ = strconv.Atoi(m[1])
		}
		if m := libraryRE.FindStringSubmatch(s); m != nil {
			tab.Version, _ = nccl.ParseVersion(m[1])
		}
		if m := versionRE.FindStringSubmatch(s); m != nil {
			tab.Version, _ = nccl.ParseVersion(m[1])
		}
		if m := envRE.FindStringSubmatch(s); m != nil {
			if m[1] == "NCCL_ALGO" {
				tab.Algo = m[2]
			} else {
				tab.Proto = m[2]
			}
		}
	}
	if pin.Algo != "" {
		tab.Algo = pin.Algo
	}
	if pin.Proto != "" {
		tab.Proto = pin.Proto
	}
	for _, s := range []*string{&tab.Algo, &tab.Proto} {
		if strings.EqualFold(*s, "auto") {
			*s = ""
		}
	}
	if pin.Version != (nccl.Version{}) {
		tab.Version = pin.Version
	}
	if pin.GPUsPerThread > 0 {
		tab.GPUsPerThread = pin.GPUsPerThread
	}
	if pin.GPU != "" {
		tab.GPU = pin.GPU
	}
	if pin.Nodes > 0 {
		tab.Nodes = pin.Nodes
	}
	switch {
	case t.CollectiveFrom == nccltests.Unknown:
		return tab, fmt.Errorf("test of %q: not a collective the model predicts", t.Op)
	case tab.Nodes < 1:
		return tab, fmt.Errorf("%s: node count unknown (the Rank lines do not name every host): give it", t.Collective)
	case tab.GPU == "":
		return tab, fmt.Errorf("%s: no GPU name in the Rank lines: give it", t.Collective)
	}
	tab.PerNode = pin.PerNode
	if tab.PerNode == 0 {
		if t.Ranks < 1 || t.Ranks%tab.Nodes != 0 {
			return tab, fmt.Errorf("%s: %d ranks on %d nodes: give the GPUs per node", t.Collective, t.Ranks, tab.Nodes)
		}
		tab.PerNode = t.Ranks / tab.Nodes
	}
	for _, r := range t.Rows {
		if r.Size > 0 && r.OutOfPlace.OK() {
			tab.Points = append(tab.Points, predict.Point{Size: float64(r.Size), Time: r.OutOfPlace.Time})
		}
	}
	if len(tab.Points) == 0 {
		return tab, fmt.Errorf("%s: no row with a size and an out-of-place time", t.Collective)
	}
	return tab, nil
}
