package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/units"
)

func init() {
	registerWarn("tune", "write NCCL's example tuner plugin rules from a calibrated model", runTune)
}

// tuneRequest is a "commlab tune" command line, its flags checked.
type tuneRequest struct {
	machine       machineFlags
	collectives   []commmodel.Collective
	nodes         []int
	perNode       int
	gpusPerThread int
	sizes         []int64
	out           string
}

// defaultTuneSizes are the sizes tune decides at without -size: powers of
// two from 1 KiB to 4 GiB.
func defaultTuneSizes() []int64 {
	var s []int64
	for b := int64(1 << 10); b <= 4<<30; b *= 2 {
		s = append(s, b)
	}
	return s
}

func parseTuneFlags(args []string) (tuneRequest, error) {
	fs := newFlags("tune")
	machine := addMachineFlags(fs)
	collectives := fs.String("collective", "allreduce", "comma-separated collectives: allreduce, allgather, reducescatter, broadcast")
	nodes := fs.String("nodes", "", "comma-separated node counts to write rules for, e.g. 1,2,4,8")
	perNode := fs.Int("per-node", 0, "GPUs per node")
	gpusPerThread := fs.Int("g", 0, "GPUs per thread (nccl-tests -g); 0 takes the calibration tables'")
	sizes := fs.String("size", "", "comma-separated sizes to decide at (default: powers of two from 1KiB to 4GiB)")
	out := fs.String("o", "nccl_tuner.conf", `the file to write ("-" for standard output)`)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab tune -calibrate A.log[,...] -nodes LIST -per-node G [-collective LIST] [-size LIST] [-o FILE]\n"+
			"                   [-g N] [-gpu NAME] [-hw SPEC|FILE] [-topo FILE]")
		fs.PrintDefaults()
	}
	if _, err := parseFlags(fs, args, 0); err != nil {
		return tuneRequest{}, err
	}
	req := tuneRequest{machine: machine, perNode: *perNode, gpusPerThread: *gpusPerThread, out: *out}
	if *machine.calibrate == "" {
		return tuneRequest{}, fmt.Errorf("give -calibrate with the machine's nccl-tests logs: tune writes the calibrated model's choices")
	}
	for _, c := range strings.Split(*collectives, ",") {
		col, err := commmodel.ParseCollective(strings.TrimSpace(c))
		if err != nil || col == commmodel.AllToAll {
			return tuneRequest{}, fmt.Errorf("-collective %q: want allreduce, allgather, reducescatter or broadcast (alltoall runs outside NCCL's tuner)", c)
		}
		req.collectives = append(req.collectives, col)
	}
	for _, n := range strings.Split(*nodes, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || v < 1 {
			return tuneRequest{}, fmt.Errorf("-nodes %q: want comma-separated positive node counts, such as 1,2,4", *nodes)
		}
		req.nodes = append(req.nodes, v)
	}
	if req.perNode < 1 {
		return tuneRequest{}, fmt.Errorf("-per-node %d: want the GPUs per node, such as 8", req.perNode)
	}
	req.sizes = defaultTuneSizes()
	if *sizes != "" {
		var err error
		if req.sizes, err = units.ParseSizes(*sizes); err != nil {
			return tuneRequest{}, fmt.Errorf("-size: %w", err)
		}
	}
	return req, nil
}

// runTune runs "commlab tune": it calibrates as predict does, decides the
// predicted fastest algorithm and protocol for each collective, node count
// and size, and writes them as the example tuner plugin's rules.
func runTune(args []string, stdout, stderr io.Writer) error {
	req, err := parseTuneFlags(args)
	if err != nil {
		return err
	}
	mc, err := req.machine.load(predict.Pins{})
	if err != nil {
		return err
	}
	writeProblems(stderr, mc.problems)
	m, err := predict.Calibrate(mc.hw, mc.tables, nil)
	if err != nil {
		return err
	}
	rules, err := tuneRules(m, req)
	if err != nil {
		return err
	}
	comment := tuneComment(mc.files, mc.hw, m)
	w := stdout
	if req.out != "-" {
		f, err := os.Create(req.out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := nccl.WriteTunerRules(w, comment, rules); err != nil {
		return err
	}
	if req.out != "-" {
		fmt.Fprintf(stderr, "commlab tune: %d rules written to %s\n", len(rules), req.out)
	}
	return nil
}

// tuneRules decides, for every collective, node count and size of req, the
// predicted fastest algorithm and protocol, and merges adjacent sizes with
// the same choice and channel count into one rule. A rule's sizes run from
// the geometric mean of its first size and the size before it to that of
// its last size and the next, the first from 0 and the last to the largest
// size NCCL can ask.
func tuneRules(m *predict.Machine, req tuneRequest) ([]nccl.TunerRule, error) {
	var rules []nccl.TunerRule
	for _, c := range req.collectives {
		f, err := nccl.FuncOf(c)
		if err != nil {
			return nil, err
		}
		for _, n := range req.nodes {
			q := predict.Query{Collective: c, Ranks: n * req.perNode, PerNode: req.perNode, GPUsPerThread: req.gpusPerThread}
			var last *nccl.TunerRule
			for i, s := range req.sizes {
				best, err := tuneChoice(m, q, float64(s))
				if err != nil {
					return nil, fmt.Errorf("%v on %d x %d at %s: %w", c, n, req.perNode, units.FormatSize(float64(s)), err)
				}
				a, err := nccl.ParseAlgo(best.Algorithm)
				if err != nil {
					return nil, err
				}
				p, err := commmodel.ParseProtocol(best.Protocol)
				if err != nil {
					return nil, err
				}
				lo := uint64(0)
				if i > 0 {
					lo = uint64(math.Sqrt(float64(req.sizes[i-1])*float64(s))) + 1
				}
				hi := uint64(math.MaxUint64)
				if i+1 < len(req.sizes) {
					hi = uint64(math.Sqrt(float64(s) * float64(req.sizes[i+1])))
				}
				if last != nil && last.Algo == a && last.Proto == p && last.Channels == best.Channels {
					last.MaxBytes = hi
					continue
				}
				rules = append(rules, nccl.TunerRule{Func: f, MinBytes: lo, MaxBytes: hi, Algo: a, Proto: p, Channels: best.Channels,
					Nodes: n, Ranks: n * req.perNode, PipeOps: -1, RegBuff: -1})
				last = &rules[len(rules)-1]
			}
		}
	}
	return rules, nil
}

// tuneChoice is the calibrated model's fastest choice of q at size.
func tuneChoice(m *predict.Machine, q predict.Query, size float64) (predict.Prediction, error) {
	cs, err := m.Choices(q, size)
	if err != nil {
		return predict.Prediction{}, err
	}
	return cs[0], nil
}

// tuneComment is the file's provenance: what made it, from which tables,
// and how to load it.
func tuneComment(paths []string, hw predict.Hardware, m *predict.Machine) []string {
	c := []string{
		"NCCL example tuner plugin rules written by commlab tune (github.com/inframethod/commlab).",
		"Load with NCCL_TUNER_PLUGIN=<path to libnccl-tuner-example.so> NCCL_TUNER_CONFIG_FILE=<this file>",
		"(NCCL 2.27.5 and later build the example plugin from ext-tuner/example, 2.29.7 and later from plugins/tuner/example).",
		"Each rule is the model's fastest choice over a range of sizes, with NCCL's own channel count for it:",
		"the plugin runs every call no rule matches, and every rule with channels -1, on one channel.",
		"hardware: " + hw.String(),
		"calibrated on: " + strings.Join(paths, ", "),
	}
	for _, p := range m.Params {
		if p.Identified {
			c = append(c, fmt.Sprintf("  %s = %s", p.Name, predict.FormatValue(p.Value, p.Unit)))
		}
	}
	return c
}
