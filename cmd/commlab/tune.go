package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
)

func init() {
	registerWarn("tune", "write NCCL's example tuner plugin rules from a calibrated model", runTune)
}

// tuneRequest is a "commlab tune" command line, its flags checked.
type tuneRequest struct {
	machine     machineFlags
	collectives []commmodel.Collective
	nodes       []int
	perNode     int
	layout      predict.Layout
	sizes       []float64
	out         string
	// replace is whether out may be replaced: the user named it with -o,
	// or gave -force for the default name.
	replace bool
}

// defaultTuneSizes are the sizes tune decides at without -size: powers of
// two from 1 KiB to 4 GiB.
func defaultTuneSizes() []float64 {
	var s []float64
	for b := float64(1 << 10); b <= 4<<30; b *= 2 {
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
	layoutFlags := addLayoutFlags(fs)
	sizes := fs.String("size", "", "comma-separated sizes to decide at (default: powers of two from 1KiB to 4GiB)")
	out := fs.String("o", "nccl_tuner.conf", `the file to write ("-" for standard output); the default name is not replaced when it exists, unless -force`)
	force := fs.Bool("force", false, "replace the -o file when it exists, though -o was not given")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab tune -calibrate A.log[,...] -nodes LIST -per-node G [-collective LIST] [-size LIST] [-o FILE] [-force]\n"+
			"                   [-g N] [-threads N] [-graph N] [-gpu NAME] [-hw SPEC|FILE] [-topo FILE]")
		fs.PrintDefaults()
	}
	if _, err := parseFlags(fs, args, 0); err != nil {
		return tuneRequest{}, err
	}
	layout, err := layoutFlags.layout(fs)
	if err != nil {
		return tuneRequest{}, err
	}
	req := tuneRequest{machine: machine, perNode: *perNode, layout: layout, out: *out, replace: *force}
	fs.Visit(func(f *flag.Flag) { req.replace = req.replace || f.Name == "o" })
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
	if err := checkCount(fs, "per-node", req.perNode, maxRanks, "the GPUs per node", "8"); err != nil {
		return tuneRequest{}, err
	}
	list := strings.Split(*nodes, ",")
	if len(list) > maxNodeCounts {
		return tuneRequest{}, usageErrorf(fs, "-nodes: %d node counts; give at most %d, such as 1,2,4,8", len(list), maxNodeCounts)
	}
	for _, n := range list {
		v, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || v < 1 {
			return tuneRequest{}, usageErrorf(fs, "-nodes %q: want comma-separated positive node counts, such as 1,2,4", *nodes)
		}
		if v > maxRanks/req.perNode {
			return tuneRequest{}, usageErrorf(fs, "-nodes %d: %d nodes of -per-node %d is beyond the %d ranks commlab models", v, v, req.perNode, maxRanks)
		}
		req.nodes = append(req.nodes, v)
	}
	req.sizes = defaultTuneSizes()
	if *sizes != "" {
		var err error
		if req.sizes, err = sizesFlag(*sizes, "1MiB..1GiB"); err != nil {
			return tuneRequest{}, err
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
	mc, err := req.machine.load(predict.Pins{}, 0)
	if err != nil {
		return err
	}
	writeProblems(stderr, mc.problems)
	m, err := predict.Calibrate(mc.hw, mc.tables, nil)
	if err != nil {
		return err
	}
	rules, err := m.TunerRules(req.collectives, req.nodes, req.perNode, req.layout, req.sizes)
	if err != nil {
		return err
	}
	if err := writeBeyond(stderr, m, req); err != nil {
		return err
	}
	comment := tuneComment(mc.files, mc.hw, m)
	if req.out == "-" {
		return nccl.WriteTunerRules(stdout, comment, rules)
	}
	var b bytes.Buffer
	if err := nccl.WriteTunerRules(&b, comment, rules); err != nil {
		return err
	}
	err = writeOutput(req.out, req.machine.inputs(), req.replace, func(tmp string) error {
		return os.WriteFile(tmp, b.Bytes(), 0o644)
	})
	if err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	fmt.Fprintf(stderr, "commlab tune: %d rules written to %s\n", len(rules), req.out)
	return nil
}

// writeBeyond warns, for each collective and node count whose rules go
// beyond the calibration tables, how they do (predict.Machine.Beyond).
func writeBeyond(w io.Writer, m *predict.Machine, req tuneRequest) error {
	for _, c := range req.collectives {
		for _, n := range req.nodes {
			q := predict.Query{Collective: c, Ranks: n * req.perNode, PerNode: req.perNode, Layout: req.layout}
			beyond, err := m.Beyond(q)
			if err != nil {
				return err
			}
			for _, b := range beyond {
				fmt.Fprintf(w, "%v on %d nodes: %s\n", c, n, b)
			}
		}
	}
	return nil
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
		"commlab " + commlabVersion() + "; the model follows NCCL " + m.Version().String() + "'s tuner",
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
