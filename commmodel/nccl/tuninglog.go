package nccl

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Tuning is what a log printed with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING
// says about NCCL's model: the latency/bandwidth table rank 0 prints once
// per communicator (ncclTopoTuneModel, NCCL 2.30.7 src/graph/tuning.cc),
// and the per-call choices NCCL prints on rank 0.
type Tuning struct {
	// Lat and BW are the printed table, in NCCL's units (us and GB/s,
	// one decimal); Seen marks the cells the log holds.
	Lat, BW [NumFuncs][NumAlgos][NumProtocols]float64
	Seen    [NumFuncs][NumAlgos]bool
	// Table reports that the log holds a table.
	Table bool
	// Calls are the per-call lines, in log order.
	Calls []Call
	// Problems are what ReadTuning had to guess or leave out, with line
	// numbers: a block without its "Algorithm" header, a row cut short.
	Problems []string
}

// Call is one per-call line of a TUNING log: "4096 Bytes -> Algo 0 proto 0
// time 25.874907" (NCCL 2.20 to 2.22), with "AllReduce: " in front from
// 2.23, or "AllReduce: 4096 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}"
// (NCCL 2.24 on, no time).
type Call struct {
	// Func is the collective, when the line names it; HasFunc says so.
	Func    Func
	HasFunc bool
	NBytes  float64
	Algo    Algo
	Proto   Protocol
	// Time is the predicted time in us, NaN when the line has none.
	Time float64
	// Channels counts the channels the call ran on, from
	// "channel{Lo..Hi}={0..3}" (NCCL 2.24 on); 0 when the line has none.
	Channels int
}

var (
	tuningCellRE = regexp.MustCompile(`\s*(-?[0-9]+\.[0-9])/\s*(-?[0-9]+\.[0-9]) \|`)
	callMark     = " Bytes -> Algo "
	callRE       = regexp.MustCompile(`(?:([A-Za-z]+): )?([0-9]+) Bytes -> Algo ([A-Za-z_0-9]+) proto ([A-Za-z_0-9]+)(?: time ([0-9.eE+-]+))?(?: channel\{Lo\.\.Hi\}=\{([0-9]+)\.\.([0-9]+)\})?`)
)

// ReadTuning reads the first TUNING table of a log (later communicators'
// tables are ignored) and every per-call line. Lines that are not part of
// a table or a call are skipped; a table row or call line that cannot be
// read is a *LineError. A log with neither gives an error.
func ReadTuning(r io.Reader) (*Tuning, error) {
	t := &Tuning{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var algos []Algo // the algorithms of the current block
	done := false    // a complete table has been read
	var seenBlock [NumAlgos]bool
	tables := 0
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if i := strings.Index(text, "  Algorithm   |"); i >= 0 {
			names := strings.Fields(strings.ReplaceAll(text[i+len("  Algorithm   |"):], "|", " "))
			algos = algos[:0]
			for _, name := range names {
				a, err := ParseAlgo(name)
				if err != nil {
					return nil, &LineError{line, err}
				}
				algos = append(algos, a)
			}
			if len(algos) > 0 && seenBlock[algos[0]] {
				done = true // the header of a later communicator's table
			}
			if done {
				algos = algos[:0]
				continue
			}
			for _, a := range algos {
				seenBlock[a] = true
			}
			tables++
			continue
		}
		if strings.Contains(text, "  Protocol    |") && len(algos) == 0 && tables == 0 {
			// An excerpt that starts below the first header: NCCL prints
			// Tree, Ring and CollNetDirect first in every version.
			algos = append(algos, AlgoTree, AlgoRing, AlgoCollNetDirect)
			for _, a := range algos {
				seenBlock[a] = true
			}
			tables++
			t.Problems = append(t.Problems, fmt.Sprintf("line %d: no Algorithm header; took NCCL's first block (Tree, Ring, CollNetDirect)", line))
			continue
		}
		if m := callOf(text); m != nil {
			c, err := parseCall(m)
			if err != nil {
				return nil, &LineError{line, err}
			}
			t.Calls = append(t.Calls, c)
			continue
		}
		if done || len(algos) == 0 {
			continue
		}
		f, cells, ok := tuningRow(text)
		if !ok {
			continue
		}
		want := len(algos) * NumProtocols
		if len(cells) > want {
			return nil, &LineError{line, fmt.Errorf("%v row has %d cells, want %d for %d algorithms", f, len(cells), want, len(algos))}
		}
		if len(cells) < want {
			t.Problems = append(t.Problems, fmt.Sprintf("line %d: %v row has %d of %d cells; kept the algorithms it holds whole", line, f, len(cells), want))
		}
		for i, a := range algos[:len(cells)/NumProtocols] {
			for p := range Protocol(NumProtocols) {
				cell := cells[i*NumProtocols+int(p)]
				lat, err1 := strconv.ParseFloat(cell[1], 64)
				bw, err2 := strconv.ParseFloat(cell[2], 64)
				if err1 != nil || err2 != nil || math.IsInf(lat, 0) || math.IsInf(bw, 0) {
					return nil, &LineError{line, fmt.Errorf("cell %q/%q is not a number", cell[1], cell[2])}
				}
				t.Lat[f][a][p], t.BW[f][a][p] = lat, bw
			}
			t.Seen[f][a] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	t.Table = tables > 0
	if !t.Table && len(t.Calls) == 0 {
		return nil, fmt.Errorf("nccl: no TUNING table and no per-call line in the log")
	}
	return t, nil
}

// callOf returns the submatches of callRE in text, or nil. Every call line
// holds callMark and most lines of a log do not: looking for it first
// spares them the expression, which, unanchored, took about 30 µs a line
// to rule out (ReadTuning read an 8.5 KB log in 3.2 ms).
func callOf(text string) []string {
	if !strings.Contains(text, callMark) {
		return nil
	}
	return callRE.FindStringSubmatch(text)
}

// tuningRow splits a table row, "    AllReduce |    15.0/  80.6 | ...".
func tuningRow(text string) (Func, [][]string, bool) {
	for f, name := range funcNames {
		i := strings.Index(text, " "+name+" |")
		if i < 0 || !strings.HasSuffix(strings.TrimSpace(text[:i+1]), "INFO") && strings.TrimSpace(text[:i+1]) != "" {
			continue
		}
		rest := text[i+len(name)+3:]
		cells := tuningCellRE.FindAllStringSubmatch(rest, -1)
		return Func(f), cells, len(cells) > 0
	}
	return 0, nil, false
}

// callAlgoNames are the names the 2.24+ call lines print
// (ncclAlgoToString, NCCL 2.30.7 src/collectives.cc).
var callAlgoNames = [NumAlgos]string{"TREE", "RING", "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS", "NVLS_TREE", "PAT"}

func parseCall(m []string) (Call, error) {
	c := Call{Time: math.NaN()}
	if m[1] != "" {
		f, err := ParseFunc(m[1])
		if err != nil {
			return c, err
		}
		c.Func, c.HasFunc = f, true
	}
	n, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return c, fmt.Errorf("byte count %q: %v", m[2], err)
	}
	c.NBytes = float64(n)
	if c.Algo, err = parseCallName(m[3], callAlgoNames[:]); err != nil {
		return c, err
	}
	p, err := parseCallName(m[4], []string{"LL", "LL128", "SIMPLE"})
	if err != nil {
		return c, err
	}
	c.Proto = Protocol(p)
	if m[5] != "" {
		if c.Time, err = strconv.ParseFloat(m[5], 64); err != nil || math.IsInf(c.Time, 0) {
			return c, fmt.Errorf("time %q is not a number", m[5])
		}
	}
	if m[6] != "" {
		lo, err1 := strconv.Atoi(m[6])
		hi, err2 := strconv.Atoi(m[7])
		if err1 != nil || err2 != nil || hi < lo {
			return c, fmt.Errorf("channels {%s..%s}: want two counts, the first not above the second", m[6], m[7])
		}
		c.Channels = hi - lo + 1
	}
	return c, nil
}

// parseCallName reads an algorithm or protocol as a number (2.20–2.23) or a
// name (2.24 on).
func parseCallName(s string, names []string) (Algo, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n >= len(names) {
			return 0, fmt.Errorf("index %d out of range", n)
		}
		return Algo(n), nil
	}
	if i := indexFold(names, s); i >= 0 {
		return Algo(i), nil
	}
	return 0, fmt.Errorf("unknown name %q", s)
}
