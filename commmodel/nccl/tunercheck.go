package nccl

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The example plugin (NCCL 2.30.7 plugins/tuner/example/plugin.c) loads its
// file with fgets into a line of MAX_LINE_LENGTH (256) bytes, so a line of
// more than 255 bytes reaches it in pieces, each read as a line of its own,
// and a piece ends, for all it does next, at its first NUL byte.
// A piece that starts with '#' or is a bare newline is skipped; the others
// are split by strtok at commas (empty fields vanish, fields past the tenth
// are dropped) and loaded as a rule when they have 8 to 10 fields, unknown
// names read as allreduce, ring or simple and numbers by atoi and strtoull.
// For each call (pluginGetCollInfo) it sets the call's channels to 1, then
// walks the rules in order: the first that matches the call and whose
// algorithm and protocol NCCL left in the cost table (not
// NCCL_ALGO_PROTO_IGNORE) gets cost 0 and, unless its channels are -1,
// sets the channels; a matching rule NCCL left out is passed over. NCCL
// takes any channel count but 0 as an override (ncclGetAlgoInfo,
// src/enqueue.cc), so a call no rule takes runs on one channel. NCCL never
// asks the plugin about a communicator of one rank.

// A TunerComm is one communicator of a job as the plugin sees it: the
// nNodes its init receives, and NCCL's tuning model of it, which says what
// NCCL leaves in the cost table (Available) and gives nRanks.
type TunerComm struct {
	Nodes int
	Model *Model
}

// String is "2 x 8" (nodes x ranks per node), or "3 nodes, 80 ranks"
// where the nodes hold unequal shares (a placement across a rack's edge).
func (c TunerComm) String() string {
	n := max(c.Nodes, 1)
	if c.Model.nRanks%n != 0 {
		return fmt.Sprintf("%d nodes, %d ranks", c.Nodes, c.Model.nRanks)
	}
	return fmt.Sprintf("%d x %d", c.Nodes, c.Model.nRanks/n)
}

// A TunerHazard is a kind of TunerProblem.
type TunerHazard int

// The hazards CheckTunerRules reports. Every one but HazardUnused makes a
// job that loads the file run otherwise than the file says.
const (
	// HazardLongLine is a line of more than 255 bytes: the plugin reads
	// the rest as another line, a rule if it has 8 to 10 fields.
	HazardLongLine TunerHazard = iota
	// HazardMisread is a line the plugin loads as something else than it
	// says (an unknown name, a field that is not a number, a missing or an
	// extra field), or skips though it is not a comment.
	HazardMisread
	// HazardDead is a rule no call can match: nRanks 1 (NCCL never asks),
	// min_bytes above max_bytes, more nodes than ranks, a count of 0.
	HazardDead
	// HazardIgnored is a rule whose algorithm and protocol NCCL leaves out
	// of the cost table of a communicator it matches: the plugin passes
	// over it.
	HazardIgnored
	// HazardShadowed is a rule every call it matches takes an earlier
	// rule.
	HazardShadowed
	// HazardOneChannel is a range of calls that run on one channel: calls
	// no rule takes, or that a rule with channels -1 takes.
	HazardOneChannel
	// HazardNoFallback is a range of calls whose every rule NCCL follows
	// names an algorithm it leaves out of some calls of the rule's function
	// (LeftOutCalls): such a call (an ncclAvg of floats for NVLS) runs on
	// one channel.
	HazardNoFallback
	// HazardUncapped is a rule of more channels than the communicator
	// sets up for an algorithm whose channels NCCL takes from the plugin
	// as they are (Model.Uncapped: CollNet, NVLS across nodes): its calls
	// would run on channels NCCL never connected.
	HazardUncapped
	// HazardUnused is a rule that matches no call of the job's
	// communicators. It is harmless to the job.
	HazardUnused
	// HazardFewerChannels is a rule NCCL follows whose channel count is
	// below what NCCL's own tuning gives its algorithm and protocol at the
	// rule's largest size on a communicator: its calls run on the rule's
	// count. The file runs as it says, which may be meant (channels left
	// to compute), so it is no failure.
	HazardFewerChannels
)

var hazardNames = [...]string{"long line", "misread", "dead rule", "ignored rule", "shadowed rule", "one channel", "no fallback", "uncapped channels", "unused rule", "fewer channels"}

// String names the hazard ("shadowed rule").
func (h TunerHazard) String() string { return nameOf(hazardNames[:], int(h), "TunerHazard") }

// A TunerProblem is one hazard of a rules file.
type TunerProblem struct {
	// Line and Column are the 1-based line and byte of the file at fault,
	// 0 for calls that no line covers (Column 0 for the whole line).
	Line, Column int
	Hazard       TunerHazard
	Message      string
}

// Fails reports whether the problem changes what a job runs otherwise than
// the file says (every hazard but HazardUnused and HazardFewerChannels).
func (p TunerProblem) Fails() bool {
	return p.Hazard != HazardUnused && p.Hazard != HazardFewerChannels
}

// pluginLine is a piece of the file the plugin loads as a rule.
type pluginLine struct {
	line int
	text string
	rule TunerRule
}

// pluginLoad reads a file as the plugin does: the rules it loads, in order,
// and the problems of its lines. It reads r a piece at a time, as the
// plugin's fgets does, and holds only the pieces it loads as rules.
func pluginLoad(r io.Reader) ([]pluginLine, []TunerProblem, error) {
	var out []pluginLine
	var probs []TunerProblem
	br := bufio.NewReader(r)
	buf := make([]byte, 0, tunerLineMax)
	line := 1
	var pos, lineStart int64 // bytes read before the piece, and before its line
	for {
		// fgets: up to tunerLineMax-1 bytes, or through a newline.
		buf = buf[:0]
		var err error
		for len(buf) < tunerLineMax-1 {
			var c byte
			if c, err = br.ReadByte(); err != nil {
				break
			}
			if buf = append(buf, c); c == '\n' {
				break
			}
		}
		if err != nil && err != io.EOF {
			return nil, nil, err
		}
		if len(buf) == 0 {
			break
		}
		atEOF := err == io.EOF
		if !atEOF && buf[len(buf)-1] != '\n' {
			if _, err := br.Peek(1); err == io.EOF {
				atEOF = true
			} else if err != nil {
				return nil, nil, err
			}
		}
		end := pos + int64(len(buf))
		piece := string(buf)
		cont := pos > lineStart // a piece after the first of a long line
		pos = end
		here := line
		if strings.HasSuffix(piece, "\n") {
			if n := end - 1 - lineStart; n >= tunerLineMax {
				probs = append(probs, TunerProblem{Line: line, Hazard: HazardLongLine, Message: fmt.Sprintf(
					"%d bytes: the plugin reads lines of at most %d and takes the rest, from byte %d, as another line", n, tunerLineMax-1, tunerLineMax)})
			}
			line, lineStart = line+1, end
		} else if atEOF && end-lineStart >= tunerLineMax {
			probs = append(probs, TunerProblem{Line: line, Hazard: HazardLongLine, Message: fmt.Sprintf(
				"%d bytes: the plugin reads lines of at most %d and takes the rest, from byte %d, as another line", end-lineStart, tunerLineMax-1, tunerLineMax)})
		}
		if piece == "" || piece[0] == '#' || piece[0] == '\n' {
			continue
		}
		text, _, _ := strings.Cut(piece, "\n")
		if i := strings.IndexByte(text, 0); i >= 0 {
			// fgets keeps the bytes past a NUL, but every string function
			// after it stops there.
			col := i + 1
			if cont {
				col = 0
			}
			probs = append(probs, TunerProblem{Line: here, Column: col, Hazard: HazardMisread, Message: fmt.Sprintf(
				"a NUL byte: the plugin reads the line only up to it, %q", text[:i])})
			text = text[:i]
		}
		fields := strtokFields(text)
		if len(fields) < 8 {
			if strings.Trim(text, " \t\r") != "" && !cont {
				probs = append(probs, TunerProblem{Line: here, Hazard: HazardMisread, Message: fmt.Sprintf(
					"%d fields: the plugin skips the line without a word (a comment starts with '#' in its first byte)", len(fields))})
			}
			continue
		}
		r := pluginRule(fields)
		out = append(out, pluginLine{line: here, text: text, rule: r})
		where := ""
		if cont {
			where = "the rest of a long line "
		}
		strict, col, err := parseTunerRule(strings.TrimSuffix(text, "\r"))
		switch {
		case err != nil:
			if cont {
				col = 0
			}
			probs = append(probs, TunerProblem{Line: here, Column: col, Hazard: HazardMisread,
				Message: fmt.Sprintf("%s%v: the plugin loads it as %s", where, err, r)})
		case strict != r || cont:
			probs = append(probs, TunerProblem{Line: here, Hazard: HazardMisread,
				Message: fmt.Sprintf("%sthe plugin loads as %s", where, r)})
		}
	}
	return out, probs, nil
}

// strtokFields splits text as the plugin does: strtok at commas, so that
// empty fields vanish, each field trimmed of spaces and tabs, at most ten.
func strtokFields(text string) []string {
	var out []string
	for _, f := range strings.Split(text, ",") {
		if f == "" {
			continue
		}
		if len(out) == 10 {
			break
		}
		out = append(out, strings.Trim(f, " \t"))
	}
	return out
}

// pluginRule is the rule the plugin loads from 8 to 10 fields.
func pluginRule(fields []string) TunerRule {
	name := func(s string, names []string, def int) int {
		if k := slices.Index(names, s); k >= 0 {
			return k
		}
		return def
	}
	r := TunerRule{
		Func:     Func(name(fields[0], tunerFuncNames[:], int(FuncAllReduce))),
		MinBytes: cStrtoull(fields[1]),
		MaxBytes: cStrtoull(fields[2]),
		Algo:     Algo(name(fields[3], tunerAlgoNames[:], int(AlgoRing))),
		Proto:    Protocol(name(fields[4], tunerProtoNames[:], int(Simple))),
		Channels: cAtoi(fields[5]),
		Nodes:    cAtoi(fields[6]),
		Ranks:    cAtoi(fields[7]),
		PipeOps:  -1,
		RegBuff:  -1,
	}
	if len(fields) > 8 {
		r.PipeOps = cAtoi(fields[8])
	}
	if len(fields) > 9 {
		r.RegBuff = cAtoi(fields[9])
	}
	return r
}

// cNumber reads C's strtoull and atoi prefix: spaces, a sign, digits; the
// value of the digits and whether a minus came first (0 without digits).
func cNumber(s string) (v uint64, neg, overflow bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			break
		}
		d := uint64(c - '0')
		if v > (math.MaxUint64-d)/10 {
			overflow = true
			v = math.MaxUint64
			continue
		}
		if !overflow {
			v = v*10 + d
		}
	}
	return v, neg, overflow
}

// cStrtoull is strtoull(s, NULL, 10): a minus negates modulo 2^64, and an
// overflow gives the largest value.
func cStrtoull(s string) uint64 {
	v, neg, overflow := cNumber(s)
	if overflow {
		return math.MaxUint64
	}
	if neg {
		return -v
	}
	return v
}

// cAtoi is atoi(s) as glibc computes it (strtol, then a cast to int),
// clamped to int32 where strtol overflows.
func cAtoi(s string) int {
	v, neg, overflow := cNumber(s)
	if overflow || v > math.MaxInt64 {
		v = math.MaxInt64
	}
	x := int64(v)
	if neg {
		x = -x
	}
	return int(int32(x))
}

// dead says why no call can match r, "" when one can.
func (r TunerRule) dead() string {
	switch {
	case r.Ranks == 1:
		return "nRanks 1: NCCL never asks the tuner about a communicator of one rank"
	case r.MinBytes > r.MaxBytes:
		return fmt.Sprintf("min_bytes %d above max_bytes %d", r.MinBytes, r.MaxBytes)
	case r.Nodes == 0 || r.Nodes < -1 || r.Ranks == 0 || r.Ranks < -1:
		return fmt.Sprintf("nNodes %d, nRanks %d: a communicator has at least one of each", r.Nodes, r.Ranks)
	case r.Nodes > 0 && r.Ranks > 0 && r.Nodes > r.Ranks:
		return fmt.Sprintf("%d nodes for %d ranks", r.Nodes, r.Ranks)
	case r.PipeOps == 0 || r.PipeOps < -1:
		return fmt.Sprintf("numPipeOps %d: a call has one or more", r.PipeOps)
	case r.RegBuff < -1 || r.RegBuff > 1:
		return fmt.Sprintf("regBuff %d: a call's is 0 or 1", r.RegBuff)
	}
	return ""
}

// leftOut says why NCCL leaves (f, a, p) out of m's cost table, each cause
// as NCCL's code at m's release has it.
func (m *Model) leftOut(f Func, a Algo, p Protocol) string {
	anyLL128 := false
	for b := range Algo(NumAlgos) {
		anyLL128 = anyLL128 || m.Available(f, b, LL128)
	}
	env := ""
	if m.algoEnv != "" || m.protoEnv != "" {
		env = fmt.Sprintf(" (NCCL_ALGO=%q, NCCL_PROTO=%q may leave it out)", m.algoEnv, m.protoEnv)
	}
	switch {
	case !m.modelled(f, a):
		return m.notRun(f, a) + env
	case env != "" && p == LL128 && !anyLL128:
		return "LL128 is off" + env
	case env != "":
		return "NCCL leaves it out here" + env
	case (a == AlgoNVLS || a == AlgoNVLSTree || a == AlgoPAT) && p != Simple:
		return fmt.Sprintf("%v runs Simple only", a)
	case p == LL128 && !anyLL128:
		return "LL128 is off on this machine"
	case a == AlgoNVLS || a == AlgoNVLSTree:
		return m.nvlsLeftOut(f, a)
	case a.CollNet():
		return m.collNetLeftOut(a)
	case a == AlgoPAT:
		return m.patLeftOut()
	}
	return "NCCL leaves it out here"
}

// notRun says why ncclTopoTuneModel (src/graph/tuning.cc) computes no time
// for (f, a) at m's release (modelled): an algorithm the release does not
// have (PAT before 2.23; NVLS, NVLSTree and CollNetDirect in 2.8, whose
// src/include/devcomm.h counts Tree, Ring and CollNet), one it runs for
// AllReduce alone before a later release ran it for AllGather and
// ReduceScatter (NVLS from 2.19, CollNetDirect from 2.20), or one NCCL runs
// for no release of f (Tree for AllGather).
func (m *Model) notRun(f Func, a Algo) string {
	v := m.v
	gather := f == FuncAllGather || f == FuncReduceScatter
	switch {
	case v.legacy() && (a == AlgoNVLS || a == AlgoNVLSTree || a == AlgoCollNetDirect || a == AlgoPAT),
		a == AlgoPAT && !v.from(23, 0):
		return fmt.Sprintf("NCCL %v has no %v", v, a)
	case v.legacy() && (a == AlgoTree || a == AlgoCollNetChain):
		return fmt.Sprintf("NCCL %v runs %v for AllReduce only", v, a)
	case gather && a == AlgoNVLS && !v.from(19, 0):
		return fmt.Sprintf("NCCL %v runs NVLS for AllReduce only; 2.19 and later run it for %v too", v, f)
	case gather && a == AlgoCollNetDirect && !v.from(20, 0):
		return fmt.Sprintf("NCCL %v runs CollNetDirect for AllReduce only; 2.20 and later run it for %v too", v, f)
	}
	return fmt.Sprintf("NCCL does not run %v for %v", a, f)
}

// nvlsLeftOut says why NVLS or NVLSTree, modelled for f, is not in the cost
// table:
//   - NCCL searches an NVLS graph only with an NVSwitch and every GPU
//     Hopper or later (src/graph/search.cc ncclTopoCompute);
//   - ncclTopoTuneModel (src/graph/tuning.cc) disables NVLSTree on one node,
//     and NVLS across nodes where CollNet is not supported;
//   - 2.19 to 2.26 leave NVLS out of AllGather and ReduceScatter across
//     nodes (src/enqueue.cc topoGetAlgoInfo, updateCollCostTable from 2.22),
//     2.26 and later out of any function but AllReduce beyond
//     NCCL_MAX_NVLS_ARITY (32) local ranks;
//   - 2.27 and later run NVLS AllGather and ReduceScatter across nodes only
//     with CollNet and a head for every local rank (ncclTopoTuneModel), and
//     2.28 and later NVLS only on two channels or more.
func (m *Model) nvlsLeftOut(f Func, a Algo) string {
	v := m.v
	gather := f == FuncAllGather || f == FuncReduceScatter
	switch {
	case !m.nvSwitch || m.minCC < 90:
		return "NCCL searches no NVLS graph without an NVSwitch and Hopper or later GPUs"
	case m.nvlsCh == 0:
		return "the NVLS graph has no channel"
	case a == AlgoNVLSTree && m.nNodes == 1:
		return "NVLSTree needs more than one node"
	case a == AlgoNVLS && m.nNodes > 1 && !m.collNet:
		return "NCCL runs NVLS across nodes only with CollNet support, off here: NCCL_COLLNET_ENABLE=1 and a CollNet network plugin"
	case gather && a == AlgoNVLS && m.nNodes > 1 && !v.from(27, 0):
		return fmt.Sprintf("NCCL %v runs NVLS for %v on one node only; 2.27 and later run it across nodes with CollNet", v, f)
	case f != FuncAllReduce && m.nRanks/m.nNodes > 32 && v.from(26, 0):
		return fmt.Sprintf("NCCL runs NVLS for %v on at most 32 GPUs a node, NCCL_MAX_NVLS_ARITY", f)
	case gather && a == AlgoNVLS && m.nNodes > 1:
		return fmt.Sprintf("NCCL runs NVLS for %v across nodes only with a CollNet head for every GPU of a node", f)
	case v.from(28, 0) && m.nvlsCh < 2:
		return fmt.Sprintf("NCCL %v runs NVLS only on two channels or more, and the NVLS graph has %d", v, m.nvlsCh)
	}
	return "NCCL leaves it out here"
}

// collNetLeftOut says why CollNetDirect or CollNetChain is not in the cost
// table: ncclTopoTuneModel (src/graph/tuning.cc) disables both without
// CollNet support and CollNetDirect without an NVSwitch, and
// updateCollCostTable (src/enqueue.cc) leaves both out beyond
// NCCL_MAX_DIRECT_ARITY+1 (8) local ranks.
func (m *Model) collNetLeftOut(a Algo) string {
	switch {
	case !m.collNet:
		return "CollNet is off here: NCCL_COLLNET_ENABLE=1 and a CollNet network plugin"
	case a == AlgoCollNetDirect && !m.nvSwitch:
		return "CollNetDirect needs an NVSwitch"
	case m.nRanks/m.nNodes > 8:
		return fmt.Sprintf("NCCL runs %v on at most 8 GPUs a node, NCCL_MAX_DIRECT_ARITY+1", a)
	}
	return "NCCL leaves it out here"
}

// patLeftOut says why PAT, modelled for its function, is not in the cost
// table: RCCL runs it only with NCCL_PAT_ENABLE=1, NCCL 2.26 and later not
// below SM60, and ncclPatEnable (src/graph/tuning.cc) by default only on
// one rank per node.
func (m *Model) patLeftOut() string {
	switch {
	case m.isa != "" && m.pat != PATOn:
		return "RCCL runs PAT only with NCCL_PAT_ENABLE=1"
	case m.v.from(26, 0) && m.minCC < 60:
		return "PAT needs SM60 or later"
	case m.pat == PATOff:
		return "PAT is off: NCCL_PAT_ENABLE=0"
	case m.nNodes != m.nRanks:
		return "PAT needs one rank per node"
	}
	return "NCCL leaves it out here"
}

// CheckTunerRules reads a rules file, named name in messages, exactly as
// the example plugin does, and reports what makes a job with the
// communicators comms run otherwise than the file says: lines of more than
// 255 bytes, lines the plugin misreads or skips, dead rules, rules NCCL
// would ignore on a communicator, shadowed rules, and every call (function,
// communicator, sizes, and the numPipeOps and regBuff the rules tell
// apart) that no rule takes or a rule of channels -1 takes, which run on one
// channel, and those whose every rule names an algorithm NCCL may leave out
// of a call's cost table (MayBeIgnored) with no rule after it for the
// calls it leaves out. A rule with fallbacks (FallbackOf) is no hazard
// where NCCL leaves it out, nor a fallback where the rule before it takes
// its calls: the file says what runs either way. Rules that match none of
// comms' calls are reported too, as HazardUnused. A communicator of one rank is never asked about and is
// skipped. The error is only the reader's.
//
// Each kind of call (function, communicator, numPipeOps and regBuff the
// rules tell apart) looks at its rules once (ruleSweep), in time
// O(n log n) in them: the whole is near-linear in the rules times the
// kinds of call.
func CheckTunerRules(r io.Reader, name string, comms []TunerComm) ([]TunerProblem, error) {
	lines, probs, err := pluginLoad(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	type use struct {
		matched, applied bool
		winner           int  // the line of an earlier rule that took its calls
		winnerAt         int  // and its index in lines
		byAnyNodes       bool // some rule of any nNodes took some of its calls first
		ignored          []string
		uncapped         []string // communicators with fewer channels than it names
		fewer            []string // communicators whose NCCL runs more channels than it names
	}
	uses := make([]use, len(lines))
	for _, l := range lines {
		if why := l.rule.dead(); why != "" {
			probs = append(probs, TunerProblem{Line: l.line, Hazard: HazardDead, Message: why})
		}
	}
	pipeOps, regBuff := callClasses(lines)
	var byFunc [NumFuncs][]int // the rules of each function, in order
	for i, l := range lines {
		if f := l.rule.Func; f >= 0 && f < NumFuncs && l.rule.MinBytes <= l.rule.MaxBytes {
			byFunc[f] = append(byFunc[f], i)
		}
	}
	for _, c := range comms {
		if c.Model.nRanks == 1 {
			continue
		}
		for f := range Func(NumFuncs) {
			for _, po := range pipeOps {
				for _, rb := range regBuff {
					var cand []int
					for _, i := range byFunc[f] {
						r := lines[i].rule
						if matchInt(r.Nodes, c.Nodes) && matchInt(r.Ranks, c.Model.nRanks) && matchInt(r.PipeOps, po.v) && matchInt(r.RegBuff, rb.v) {
							cand = append(cand, i)
						}
					}
					calls := func(lo, hi uint64) string {
						sizes := fmt.Sprintf("%d..%d B", lo, hi)
						switch {
						case lo <= 1 && hi == math.MaxUint64:
							sizes = "every size"
						case hi == math.MaxUint64:
							sizes = fmt.Sprintf("%d B and more", lo)
						}
						s := fmt.Sprintf("%v of %s on %v (nNodes %d, nRanks %d)", f, sizes, c, c.Nodes, c.Model.nRanks)
						for _, cl := range []callClass{po, rb} {
							if cl.text != "" {
								s += ", " + cl.text
							}
						}
						return s
					}
					available := func(i int) bool { return c.Model.Available(f, lines[i].rule.Algo, lines[i].rule.Proto) }
					sw := sweepRules(lines, cand, available)
					// one collects adjacent sizes that run on one channel,
					// bare adjacent sizes whose rules of line bareLine all
					// name an algorithm NCCL may leave out.
					one := sizeRun{report: func(lo, hi uint64) {
						probs = append(probs, TunerProblem{Hazard: HazardOneChannel,
							Message: calls(lo, hi) + ": no rule takes them, and the plugin runs them on one channel"})
					}}
					bareLine, bareCalls := 0, ""
					bare := sizeRun{report: func(lo, hi uint64) {
						probs = append(probs, TunerProblem{Line: bareLine, Hazard: HazardNoFallback, Message: calls(lo, hi) +
							": no rule after this one names Ring or Tree, which NCCL never leaves out of a call's cost table; a call it leaves this algorithm out of (" +
							bareCalls + ") runs on one channel"})
					}}
					for n, i := range cand {
						u, r := &uses[i], lines[i].rule
						u.matched = true
						if k := sw.shadowed[n]; k >= 0 {
							if u.winner == 0 {
								u.winner, u.winnerAt = lines[sw.sure[k]].line, sw.sure[k]
							}
							u.byAnyNodes = u.byAnyNodes || lines[sw.sure[k]].rule.Nodes == -1
						}
						if !sw.reached[n] {
							continue
						}
						if !available(i) {
							why := fmt.Sprintf("%v (%s)", c, c.Model.leftOut(f, r.Algo, r.Proto))
							if !slices.Contains(u.ignored, why) {
								u.ignored = append(u.ignored, why)
							}
							continue
						}
						u.applied = true
						if most, ok := c.Model.Uncapped(r.Algo); ok && r.Channels > most {
							why := fmt.Sprintf("%v (%d)", c, most)
							if !slices.Contains(u.uncapped, why) {
								u.uncapped = append(u.uncapped, why)
							}
						}
					}
					for k, lo := range sw.bounds {
						hi := sw.hi(k)
						// taken is the first rule NCCL follows, sure the
						// first of those it follows in every call.
						taken, sure := sw.taken[k], sw.sure[k]
						// An empty call moves nothing on any channel, and
						// from NCCL 2.20 never reaches the tuner (taskAppend,
						// src/enqueue.cc, discards a collective of count 0):
						// the sizes a hazard names start at 1 B.
						from := max(lo, 1)
						if taken < 0 {
							if from <= hi {
								one.add(from, hi)
							}
						} else {
							one.flush()
							r, u := lines[taken].rule, &uses[taken]
							if own, _ := c.Model.MaxChannels(r.Algo, r.Proto, float64(min(hi, 1<<tunerProbeTop))); r.Channels > 0 && r.Channels < own {
								why := fmt.Sprintf("%v (%d)", c, own)
								if !slices.Contains(u.fewer, why) {
									u.fewer = append(u.fewer, why)
								}
							}
						}
						// A rule NCCL leaves out of no call of its
						// function on this release (NVLS for AllGather from
						// 2.22.3) needs no fallback, though one after it,
						// as tune writes, does no harm.
						if taken >= 0 && sure < 0 && c.Model.LeftOutCalls(f, lines[taken].rule.Algo) != "" {
							if l := lines[taken].line; l != bareLine {
								bare.flush()
								bareLine, bareCalls = l, c.Model.LeftOutCalls(f, lines[taken].rule.Algo)
							}
							if from <= hi {
								bare.add(from, hi)
							}
						} else {
							bare.flush()
						}
					}
					one.flush()
					bare.flush()
				}
			}
		}
	}
	rules := make([]TunerRule, len(lines))
	for i, l := range lines {
		rules[i] = l.rule
	}
	// A rule with fallbacks after it (FallbackOf) says what runs where NCCL
	// leaves it out: passed over there, it is no hazard; and a fallback
	// that an earlier rule takes every call from is there for machines
	// that leave that rule out.
	fallback := FallbackOf(rules)
	backed := make([]bool, len(lines))
	for _, of := range fallback {
		if of >= 0 {
			backed[of] = true
		}
	}
	for i, l := range lines {
		u, r := uses[i], l.rule
		switch {
		case r.dead() != "":
		case len(u.ignored) > 0 && backed[i]:
		case len(u.ignored) == 0 && u.matched && !u.applied && fallback[i] >= 0:
		case len(u.ignored) > 0:
			probs = append(probs, TunerProblem{Line: l.line, Hazard: HazardIgnored, Message: fmt.Sprintf(
				"%s/%s is not in NCCL's cost table of %v on %s: the plugin passes over the rule",
				tunerAlgoNames[r.Algo], tunerProtoNames[r.Proto], r.Func, strings.Join(u.ignored, ", "))})
		case u.matched && !u.applied && !u.byAnyNodes && anyNodes(r, lines[u.winnerAt].rule):
			// Any nNodes for a count of ranks, after rules of the job's
			// own counts of nodes only: there for the same communicators
			// counted otherwise (placed across more NVLink domains, or
			// without MNNVL), not a mistake.
			probs = append(probs, TunerProblem{Line: l.line, Hazard: HazardUnused, Message: fmt.Sprintf(
				"matches only calls that rules of the job's own counts of nodes take first (line %d); it takes their calls at other counts (NCCL counts a communicator placed across more NVLink domains as more nodes)", u.winner)})
		case u.matched && !u.applied:
			probs = append(probs, TunerProblem{Line: l.line, Hazard: HazardShadowed, Message: fmt.Sprintf(
				"every call it matches takes the rule of line %d first", u.winner)})
		case !u.matched:
			probs = append(probs, TunerProblem{Line: l.line, Hazard: HazardUnused, Message: "matches no call of the job's communicators"})
		}
		if len(u.uncapped) > 0 {
			probs = append(probs, TunerProblem{Line: l.line, Hazard: HazardUncapped, Message: fmt.Sprintf(
				"%d channels of %s, which NCCL runs as the rule names them, not capped at the communicator's: more than NCCL sets up for it on %s, so its calls would run on channels never connected",
				r.Channels, tunerAlgoNames[r.Algo], strings.Join(u.uncapped, ", "))})
		}
		if len(u.fewer) > 0 {
			probs = append(probs, TunerProblem{Line: l.line, Hazard: HazardFewerChannels, Message: fmt.Sprintf(
				"%d channels of %s/%s, fewer than NCCL's own tuning runs it on at the rule's largest size on %s: NCCL runs the calls it takes on the rule's count (0 leaves the count to NCCL)",
				r.Channels, tunerAlgoNames[r.Algo], tunerProtoNames[r.Proto], strings.Join(u.fewer, ", "))})
		}
		if u.applied && r.Channels == -1 {
			probs = append(probs, TunerProblem{Line: l.line, Hazard: HazardOneChannel, Message: "channels -1: the plugin keeps its default of one channel for every call the rule takes"})
		}
	}
	slices.SortStableFunc(probs, func(a, b TunerProblem) int {
		if a.Line == 0 || b.Line == 0 {
			return b.Line - a.Line // calls no line covers last
		}
		return a.Line - b.Line
	})
	return probs, nil
}

func matchInt(want, got int) bool { return want == -1 || want == got }

// anyNodes reports that r is a rule of any nNodes for w's count of ranks,
// where w names its nodes: the rule tune writes for a communicator placed
// across more NVLink domains than it needs. A rule of any nRanks after
// rules that take its calls stays shadowed: NCCL never counts a
// communicator's ranks otherwise.
func anyNodes(r, w TunerRule) bool {
	return r.Nodes == -1 && w.Nodes != -1 && r.Ranks != -1 && r.Ranks == w.Ranks
}

// A callClass is a value of a call's numPipeOps or regBuff that the rules
// tell apart, and how a message names it ("" when the rules do not tell
// values apart).
type callClass struct {
	v    int
	text string
}

// callClasses returns the numPipeOps and regBuff values that stand for
// every call: each value a rule names, and one that no rule names.
func callClasses(lines []pluginLine) (pipeOps, regBuff []callClass) {
	var named []int
	for _, l := range lines {
		if l.rule.PipeOps > 0 && !slices.Contains(named, l.rule.PipeOps) {
			named = append(named, l.rule.PipeOps)
		}
	}
	slices.Sort(named)
	other := 1
	for slices.Contains(named, other) {
		other++
	}
	if len(named) == 0 {
		pipeOps = []callClass{{v: 1}}
	} else {
		var names []string
		for _, v := range named {
			pipeOps = append(pipeOps, callClass{v, "numPipeOps " + strconv.Itoa(v)})
			names = append(names, strconv.Itoa(v))
		}
		pipeOps = append(pipeOps, callClass{other, "numPipeOps other than " + strings.Join(names, ", ")})
	}
	regBuff = []callClass{{v: 0}}
	if slices.ContainsFunc(lines, func(l pluginLine) bool { return l.rule.RegBuff == 0 || l.rule.RegBuff == 1 }) {
		regBuff = []callClass{{0, "regBuff 0"}, {1, "regBuff 1"}}
	}
	return pipeOps, regBuff
}

// A sizeRun gathers adjacent ranges of sizes and reports each run of them
// once.
type sizeRun struct {
	lo, hi uint64
	open   bool
	report func(lo, hi uint64)
}

// add extends the run by lo..hi, the sizes just after it, or opens one.
func (s *sizeRun) add(lo, hi uint64) {
	if !s.open {
		s.lo, s.open = lo, true
	}
	s.hi = hi
}

// flush reports the open run, if any, and closes it.
func (s *sizeRun) flush() {
	if s.open {
		s.report(s.lo, s.hi)
		s.open = false
	}
}
