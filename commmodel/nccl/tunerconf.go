package nccl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/internal/parseerr"
)

// NCCL's example tuner plugin (plugins/tuner/example, ext-tuner/example
// before NCCL 2.29.7) reads its rules from the CSV file that
// NCCL_TUNER_CONFIG_FILE names (nccl_tuner.conf in the working directory
// by default), one rule a line:
//
//	collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]
//
// A line that starts with '#', and an empty line, is skipped; fields are
// trimmed of spaces and tabs. For each call the plugin takes the first rule
// that matches its function, its size (min_bytes <= nBytes <= max_bytes),
// and the communicator's nodes and ranks, the call's pipelined operations
// and whether its buffers are registered (-1 matches any), and sets that
// algorithm's and protocol's cost to 0, so that NCCL runs it unless it is
// not available. The traps of the plugin, which TunerRule's reader refuses
// and CheckTunerRules reports: it reads an unknown collective, algorithm or
// protocol as allreduce, ring or simple without a word, reads a line of
// more than 255 bytes, a comment too, in pieces, and sets the channels of
// every call to 1 before it looks at the rules, so that channels -1, and a
// call no rule matches, run on one channel.
//
// The plugin needs NCCL 2.30.3 or later (TunerPluginFrom): from 2.27.5,
// where it first reads a file, to 2.29.7 its getCollInfo indexes NCCL's
// contiguous cost table as a float** and crashes on the first call a rule
// matches (NVIDIA/nccl#1974); 2.30.3 casts it to float (*)[3] (commit
// 14bf4df7).

// TunerPluginFrom is the first NCCL release whose example tuner plugin
// reads NCCL's cost table correctly.
var TunerPluginFrom = Version{2, 30, 3}

// TunerPluginPatch is the line that fixes the example plugin of NCCL 2.27.5
// to 2.29.7, at the top of pluginGetCollInfo, with table in place of
// collCostTable where the function indexes it.
const TunerPluginPatch = "float (*table)[NCCL_NUM_PROTOCOLS] = (float (*)[NCCL_NUM_PROTOCOLS])collCostTable;"

// A TunerRule is one rule of the example tuner plugin's file.
type TunerRule struct {
	Func               Func
	MinBytes, MaxBytes uint64
	Algo               Algo
	Proto              Protocol
	// Channels is the channel count; NCCLChannels (0) for NCCL's own,
	// the count its tuning gives the rule's algorithm and protocol on the
	// communicator; -1 for the plugin's default (1).
	Channels int
	// Nodes, Ranks, PipeOps and RegBuff select the calls the rule applies
	// to, -1 for any. RegBuff is 0 or 1.
	Nodes, Ranks, PipeOps, RegBuff int
}

// NCCLChannels is a rule's channels that leave the count to NCCL: the
// plugin passes 0 on, and NCCL keeps the channels its own tuning gives the
// algorithm and protocol (ncclGetAlgoInfo, src/enqueue.cc, NCCL 2.23 to
// 2.30).
const NCCLChannels = 0

// tunerFuncNames, tunerAlgoNames and tunerProtoNames are the plugin's
// spellings (parseCollType, parseAlgorithm, parseProtocol in plugin.c).
var (
	tunerFuncNames  = [NumFuncs]string{"broadcast", "reduce", "allgather", "reducescatter", "allreduce"}
	tunerAlgoNames  = [NumAlgos]string{"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"}
	tunerProtoNames = [NumProtocols]string{"ll", "ll128", "simple"}
)

// TunerHeader is the plugin's column line, as a comment.
const TunerHeader = "# collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff"

// tunerLineMax is the plugin's line buffer (MAX_LINE_LENGTH): it reads a
// longer line in pieces.
const tunerLineMax = 256

// ErrTunerRule is the cause of every error of ReadTunerRules.
var ErrTunerRule = errors.New("not a tuner rule")

// String writes r as the plugin reads it, all ten fields.
func (r TunerRule) String() string {
	return fmt.Sprintf("%s,%d,%d,%s,%s,%d,%d,%d,%d,%d", tunerFuncNames[r.Func], r.MinBytes, r.MaxBytes,
		tunerAlgoNames[r.Algo], tunerProtoNames[r.Proto], r.Channels, r.Nodes, r.Ranks, r.PipeOps, r.RegBuff)
}

// Matches reports whether the plugin applies r to a call of f of nBytes on
// nodes and ranks, with pipeOps pipelined operations and regBuff 0 or 1.
func (r TunerRule) Matches(f Func, nBytes float64, nodes, ranks, pipeOps, regBuff int) bool {
	match := func(want, got int) bool { return want == -1 || want == got }
	n, ok := wholeBytes(nBytes)
	return ok && r.Func == f && r.MinBytes <= uint64(n) && uint64(n) <= r.MaxBytes &&
		match(r.Nodes, nodes) && match(r.Ranks, ranks) && match(r.PipeOps, pipeOps) && match(r.RegBuff, regBuff)
}

// FirstMatch returns the rule the plugin applies to a call (Matches), the
// first in the file that matches, and false when none does.
func FirstMatch(rules []TunerRule, f Func, nBytes float64, nodes, ranks, pipeOps, regBuff int) (TunerRule, bool) {
	for _, r := range rules {
		if r.Matches(f, nBytes, nodes, ranks, pipeOps, regBuff) {
			return r, true
		}
	}
	return TunerRule{}, false
}

// ReadTunerRules reads the rules of a tuner file, named name in errors. It
// is stricter than the plugin, which reads what it cannot parse as a
// default: a line it refuses is a *parseerr.ParseError wrapping
// ErrTunerRule, at the line and column of the field.
func ReadTunerRules(r io.Reader, name string) ([]TunerRule, error) {
	sc := bufio.NewScanner(r)
	var rules []TunerRule
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		fail := func(col int, format string, args ...any) error {
			return &parseerr.ParseError{File: name, Line: line, Column: col, Err: fmt.Errorf("%w: "+format, append([]any{ErrTunerRule}, args...)...)}
		}
		if len(text) >= tunerLineMax {
			return nil, fail(0, "%d bytes, more than the plugin's line of %d (it reads the rest as another line)", len(text), tunerLineMax-1)
		}
		if text == "" || text[0] == '#' {
			continue
		}
		rule, col, err := parseTunerRule(text)
		if err != nil {
			return nil, fail(col, "%v", err)
		}
		rules = append(rules, rule)
	}
	if err := sc.Err(); err != nil {
		return nil, &parseerr.ParseError{File: name, Err: err}
	}
	return rules, nil
}

// parseTunerRule reads one line; on error col is the 1-based column of the
// field at fault.
func parseTunerRule(text string) (r TunerRule, col int, err error) {
	var fields []string
	var cols []int
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == ',' {
			raw := text[start:i]
			fields = append(fields, strings.Trim(raw, " \t"))
			cols = append(cols, start+1+len(raw)-len(strings.TrimLeft(raw, " \t")))
			start = i + 1
		}
	}
	if n := len(fields); n < 8 || n > 10 {
		return r, 0, fmt.Errorf("%d fields, want 8 to 10: collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks[,numPipeOps[,regBuff]]", n)
	}
	// name reads field i as one of names; the plugin reads anything else as
	// its default.
	name := func(i int, names []string, what, def string) (int, error) {
		for k, n := range names {
			if fields[i] == n {
				return k, nil
			}
		}
		return 0, fmt.Errorf("%s %q: want one of %s (the plugin would read it as %s)", what, fields[i], strings.Join(names, ", "), def)
	}
	k, err := name(0, tunerFuncNames[:], "collective", "allreduce")
	if err != nil {
		return r, cols[0], err
	}
	r.Func = Func(k)
	for i, p := range []*uint64{&r.MinBytes, &r.MaxBytes} {
		if *p, err = strconv.ParseUint(fields[1+i], 10, 64); err != nil {
			return r, cols[1+i], fmt.Errorf("byte count %q: want a whole number", fields[1+i])
		}
	}
	if r.MinBytes > r.MaxBytes {
		return r, cols[1], fmt.Errorf("min_bytes %d above max_bytes %d: the rule matches nothing", r.MinBytes, r.MaxBytes)
	}
	if k, err = name(3, tunerAlgoNames[:], "algorithm", "ring"); err != nil {
		return r, cols[3], err
	}
	r.Algo = Algo(k)
	if k, err = name(4, tunerProtoNames[:], "protocol", "simple"); err != nil {
		return r, cols[4], err
	}
	r.Proto = Protocol(k)
	r.PipeOps, r.RegBuff = -1, -1
	ints := []*int{&r.Channels, &r.Nodes, &r.Ranks, &r.PipeOps, &r.RegBuff}
	for i := 5; i < len(fields); i++ {
		v, err := strconv.Atoi(fields[i])
		switch {
		case i == 9 && (err != nil || v < -1 || v > 1):
			return r, cols[i], fmt.Errorf("regBuff %q: want -1, 0 or 1", fields[i])
		case i == 5 && (err != nil || v < -1):
			return r, cols[i], fmt.Errorf("channels %q: want 0 (NCCL's own), -1 (the plugin's one) or a positive count", fields[i])
		case i > 5 && i < 9 && (err != nil || v < -1 || v == 0):
			return r, cols[i], fmt.Errorf("%q: want -1 or a positive count", fields[i])
		}
		*ints[i-5] = v
	}
	return r, 0, nil
}

// WriteTunerRules writes rules in the plugin's format, after comment, whose
// lines (each string's lines: a line break in one starts another) it
// prefixes with "# " and folds at spaces (or within a word too long) into
// lines of at most 255 bytes, and the column line (TunerHeader).
func WriteTunerRules(w io.Writer, comment []string, rules []TunerRule) error {
	bw := bufio.NewWriter(w)
	for _, c := range comment {
		for _, line := range strings.Split(strings.ReplaceAll(c, "\r", ""), "\n") {
			for _, l := range foldComment(line, tunerLineMax-1) {
				fmt.Fprintln(bw, l)
			}
		}
	}
	fmt.Fprintln(bw, TunerHeader)
	for _, r := range rules {
		fmt.Fprintln(bw, r.String())
	}
	return bw.Flush()
}

// foldComment returns "# "+c as comment lines of at most limit bytes: the
// text is broken at the last space that fits, or within a word (at a rune
// boundary) that does not, and each further line is "#   " and the rest.
func foldComment(c string, limit int) []string {
	prefix := "# "
	var out []string
	for {
		room := limit - len(prefix)
		if len(c) <= room {
			return append(out, prefix+c)
		}
		cut := strings.LastIndexByte(c[:room+1], ' ')
		if cut <= 0 {
			cut = len(parseerr.Prefix(c, room))
		}
		out = append(out, strings.TrimRight(prefix+c[:cut], " "))
		c, prefix = strings.TrimLeft(c[cut:], " "), "#   "
	}
}
