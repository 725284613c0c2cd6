package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
)

// A calibrationFile is one item of -calibrate: a measurement file and what
// the user knows of its run that the file may not say,
//
//	FILE[:KEY=VALUE...]
//
// with the keys of calibrationKeys; "ring.log:algo=ring",
// "rows.txt:collective=allreduce:ranks=16:nodes=2:gpu=NVIDIA H100 80GB HBM3".
// A key given for the file overrides the command's -algo and -proto and
// what the log prints.
type calibrationFile struct {
	path string
	pins predict.Pins
	// tests are the file's tests to calibrate on (test=N, as fit -list
	// counts them), none for all.
	tests []int
	// keys are the keys the item gave (algo, nodes, ...).
	keys []string
}

// sets reports whether the item gave key.
func (f calibrationFile) sets(key string) bool { return slices.Contains(f.keys, key) }

// calibrationKeys are the keys a -calibrate item takes, with what each sets.
var calibrationKeys = []struct{ key, doc string }{
	{"algo", "NCCL_ALGO of the run (ring, tree, nvls, ..., or a list NCCL reads: ^nvls)"},
	{"proto", "NCCL_PROTO of the run (ll, ll128, simple, or a list NCCL reads: ^ll128)"},
	{"collective", "the collective, for rows without nccl-tests' header"},
	{"ranks", "the rank count"},
	{"nodes", "the node count"},
	{"per-node", "GPUs per node"},
	{"g", "GPUs per thread (nccl-tests -g)"},
	{"threads", "threads per process (nccl-tests -t)"},
	{"graph", "CUDA graph launches (nccl-tests -G), 0 for none"},
	{"gpu", "the GPU name, as nccl-tests' Rank lines print it"},
	{"version", "the NCCL release, such as 2.21.5"},
	{"test", "a test of the file to calibrate on, counted from 0 as fit -list lists them (repeat it for several); all when absent"},
}

// parseCalibrationFiles parses a comma-separated list of FILE[:KEY=VALUE...]
// items (-calibrate's, or a command's log argument), each file's pins
// starting from base (-algo, -proto and -gpu); what names the list in an
// error ("-calibrate", "the log").
func parseCalibrationFiles(list string, base predict.Pins, what string) ([]calibrationFile, error) {
	var out []calibrationFile
	for _, item := range listItems(list) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		path, keys := fileAndKeys(item)
		if key, _, ok := strings.Cut(item, "="); ok && len(keys) == 0 && isCalibrationKey(key) {
			if _, err := os.Stat(item); err != nil {
				return nil, flagErrorf("%s %q: a KEY=VALUE, not a file: ':' joins a file's keys (FILE:nodes=4:per-node=8), ',' separates files", what, item)
			}
		}
		f := calibrationFile{path: path, pins: base}
		given := map[string]string{}
		for _, kv := range keys {
			// A key given two values would be read as its last without a
			// word (nodes=1:nodes=2); test alone is repeated, for several.
			if key, value, _ := strings.Cut(kv, "="); key != "test" && given[key] != "" && given[key] != value {
				return nil, flagErrorf("%s %q: %s given twice (%s=%s and %s=%s): give it once", what, item, key, key, given[key], key, value)
			}
			if err := f.set(kv); err != nil {
				return nil, flagErrorf("%s %q: %w", what, item, err)
			}
			key, value, _ := strings.Cut(kv, "=")
			given[key] = value
			f.keys = append(f.keys, key)
		}
		if err := f.pins.CheckShape(); err != nil {
			return nil, flagErrorf("%s %q: %w", what, item, err)
		}
		out = append(out, f)
	}
	if len(out) == 0 && strings.TrimSpace(list) != "" {
		return nil, flagErrorf("%s %q names no file: give FILE[,FILE...] (each FILE[:KEY=VALUE...]), or leave it out", what, list)
	}
	return out, nil
}

// pinnedAlike says which calibration files take -algo's or -proto's pin
// (base's) for want of their own algo= or proto=: the command takes their
// runs to have set it, which moves the calibration where they did not.
func pinnedAlike(files []calibrationFile, base predict.Pins) []problem {
	var out []problem
	for _, pin := range []struct{ flag, key, value string }{{"-algo", "algo", base.Algo}, {"-proto", "proto", base.Proto}} {
		if pin.value == "" {
			continue
		}
		var took []string
		for _, f := range files {
			if !f.sets(pin.key) && !slices.Contains(took, f.path) {
				took = append(took, f.path)
			}
		}
		if len(took) > 0 {
			out = append(out, problem{Message: fmt.Sprintf("%s %s pins the calibration runs of %s as well, which give no %s= of their own: they are taken to have run NCCL_%s=%s; give FILE:%s=auto for a run that left it to NCCL",
				pin.flag, strings.ToLower(pin.value), words.And(took), pin.key, strings.ToUpper(pin.key), pin.value, pin.key)})
		}
	}
	return out
}

// listItems splits a comma-separated list of FILE[:KEY=VALUE...] items at
// the commas that do not fall inside a file's name: an item and those
// after it, joined by commas, are one where that names a file (a log named
// run,a.log), as fileAndKeys takes a name's colons.
// Only where a name in the first part's directory begins with the part's
// last element and a comma (commaName) are joins tried: a list of n items
// otherwise took n² stats of paths up to the list's length (a fuzzed list
// of 2000 commas took a minute).
func listItems(list string) []string {
	parts := strings.Split(list, ",")
	var items []string
	dirs := map[string][]string{}
	for i := 0; i < len(parts); {
		j := len(parts)
		if !commaName(parts[i], dirs) {
			j = i + 1
		}
		for ; j > i+1; j-- {
			path, keys := fileAndKeys(strings.TrimSpace(strings.Join(parts[i:j], ",")))
			if info, err := os.Stat(path); err == nil && !info.IsDir() && strings.Contains(path, ",") &&
				!strings.Contains(strings.Join(keys, ":"), ",") {
				break
			}
		}
		items = append(items, strings.Join(parts[i:j], ","))
		i = j
	}
	return items
}

// commaName reports that first, a part of listItems (its leading spaces
// trimmed as the item's are), may begin a file's name that holds a comma:
// that a name in its directory begins with its last element and a comma,
// in any case (a file system may ignore it), or that the directory cannot
// be listed but may exist. dirs holds the names of the directories read.
func commaName(first string, dirs map[string][]string) bool {
	dir, base := filepath.Split(strings.TrimLeftFunc(first, unicode.IsSpace))
	if dir == "" {
		dir = "."
	}
	names, ok := dirs[dir]
	if !ok {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrPermission) {
			return true
		}
		for _, e := range entries {
			names = append(names, e.Name())
		}
		dirs[dir] = names
	}
	prefix := base + ","
	return slices.ContainsFunc(names, func(name string) bool {
		return len(name) >= len(prefix) && strings.EqualFold(name[:len(prefix)], prefix)
	})
}

// fileAndKeys splits an item FILE[:KEY=VALUE...] of parseCalibrationFiles
// at the colon after the longest FILE that names a file: a log named with
// colons (a timestamp, run_10:00:00.log) is that file, not keys. Where no
// prefix names one, FILE ends at the first colon.
func fileAndKeys(item string) (string, []string) {
	parts := strings.Split(item, ":")
	for n := len(parts); n > 1; n-- {
		path := strings.Join(parts[:n], ":")
		if info, err := os.Stat(path); err == nil && !info.IsDir() {
			return path, parts[n:]
		}
	}
	return parts[0], parts[1:]
}

// isCalibrationKey reports that key is one of calibrationKeys.
func isCalibrationKey(key string) bool {
	return slices.ContainsFunc(calibrationKeys, func(k struct{ key, doc string }) bool { return k.key == key })
}

// set applies one KEY=VALUE of a -calibrate item.
func (f *calibrationFile) set(kv string) error {
	key, value, ok := strings.Cut(kv, "=")
	if !ok || value == "" {
		return fmt.Errorf("%q: want KEY=VALUE with KEY one of %s", kv, keyList())
	}
	count := func() (int, error) {
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("%s=%q: want a positive count", key, value)
		}
		return n, nil
	}
	var err error
	switch key {
	case "algo":
		if f.pins.Algo, err = algoPin(value); err != nil {
			return fmt.Errorf("%s=%q: %v (a file's list holds neither ',' nor ':', which -calibrate splits on: ^NAME excludes one)", key, value, err)
		}
		// auto is a pin too: the tuner chose, whatever the log and the
		// file's name say (predict.Pins reads "auto" so).
		f.pins.Algo = cmp.Or(f.pins.Algo, "auto")
	case "proto":
		if f.pins.Proto, err = protoPin(value); err != nil {
			return fmt.Errorf("%s=%q: %v (a file's list holds neither ',' nor ':', which -calibrate splits on: ^NAME excludes one)", key, value, err)
		}
		f.pins.Proto = cmp.Or(f.pins.Proto, "auto")
	case "collective":
		if _, err := commmodel.ParseCollective(value); err != nil {
			return fmt.Errorf("%s=%q: want one of %s", key, value, commmodel.CollectiveNames())
		}
		f.pins.Collective = value
	case "ranks":
		f.pins.Ranks, err = count()
	case "nodes":
		f.pins.Nodes, err = count()
	case "per-node":
		f.pins.PerNode, err = count()
	case "g":
		f.pins.GPUsPerThread, err = count()
	case "threads":
		f.pins.ThreadsPerProcess, err = count()
	case "graph":
		f.pins.Graphs, err = strconv.Atoi(value)
		switch {
		case err != nil || f.pins.Graphs < 0:
			return fmt.Errorf("%s=%q: want a count of graph launches, or 0 for none", key, value)
		case f.pins.Graphs == 0:
			f.pins.Graphs = predict.NoGraphs
		}
	case "gpu":
		f.pins.GPU = value
	case "version":
		f.pins.Version, err = nccl.ParseVersion(value)
	case "test":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return fmt.Errorf("%s=%q: want a test's index, 0 or more", key, value)
		}
		f.tests = append(f.tests, n)
	default:
		return fmt.Errorf("unknown key %q: want one of %s", key, keyList())
	}
	return err
}

func keyList() string {
	keys := make([]string, len(calibrationKeys))
	for i, k := range calibrationKeys {
		keys[i] = k.key
	}
	return strings.Join(keys, ", ")
}

// machineFlags are the flags that describe the machine a command models,
// with one meaning in every command that takes them: -calibrate, -gpu,
// -hw and -topo.
type machineFlags struct {
	calibrate, gpu, hw, topo *string
	// capture and description read -topo and -hw on their first call and
	// give that after: a stream (-topo <(nvidia-smi topo -m)) gives its
	// bytes once, and every step of a command reads what it gave.
	capture     func() (captured, error)
	description func() (described, error)
}

// captured is what reading -topo gave (readTopo): nil without -topo.
type captured struct {
	topology *topo.Topology
	problems []*topo.ParseError
}

// described is what reading -hw gave (readDescription).
type described struct {
	spec string
	kvs  []hwPair
}

// readDescription returns -hw's description and its pairs.
func (f machineFlags) readDescription() (string, []hwPair, error) {
	d, err := f.description()
	return d.spec, d.kvs, err
}

// readCapture returns -topo's capture, nil without -topo.
func (f machineFlags) readCapture() (*topo.Topology, []*topo.ParseError, error) {
	c, err := f.capture()
	return c.topology, c.problems, err
}

// addMachineFlags defines the machine flags on fs.
func addMachineFlags(fs *flag.FlagSet) machineFlags {
	f := machineFlags{
		calibrate: fs.String("calibrate", "", "comma-separated nccl-tests logs of the machine to calibrate on, each FILE[:KEY=VALUE...] with KEY one of "+
			keyList()+" (omit for NCCL's uncalibrated model)"),
		gpu:  fs.String("gpu", "", "GPU name (as nccl-tests' Rank lines print it); replaces the logs', and names the GPU where they name none (predict without -calibrate needs it)"),
		hw:   fs.String("hw", "", hwUsage()),
		topo: fs.String("topo", "", "nvidia-smi topo -m, rocm-smi --showtopo or amd-smi topology capture of one node: GPU links and NICs"),
	}
	f.capture = sync.OnceValues(func() (captured, error) {
		if *f.topo == "" {
			return captured{}, nil
		}
		t, problems, err := readTopo(*f.topo)
		return captured{t, problems}, err
	})
	f.description = sync.OnceValues(func() (described, error) {
		spec, kvs, err := readDescription(*f.hw)
		return described{spec, kvs}, err
	})
	return f
}

// hwUsage is the usage of -hw, in every command that takes it.
func hwUsage() string {
	return "hardware description, KEY=VALUE,... or a file of KEY=VALUE lines, with KEY one of " + predict.DescribeKeyNames() +
		"; it replaces what the logs, the capture and the catalog say, and describes a GPU commlab does not know, whose facts are otherwise assumed " +
		"(an AMD Instinct MI300X host, which it knows, is cc=9.4,links=7,link-bw=64GB/s: 9.4, which no NVIDIA GPU has, makes the GPU AMD's, its links Infinity Fabric, run by RCCL)"
}

// stdinOnce returns a usage error where standard input ("-"), or another
// stream such as a named pipe, is given for more than one of the machine
// flags' inputs, logs (the log arguments of diagnose or plot) and files
// (tune -check's): it gives its bytes once.
func (f machineFlags) stdinOnce(logs []string, files ...string) error {
	in := append(f.inputs(), files...)
	for _, l := range logs {
		for _, item := range listItems(l) {
			path, _ := fileAndKeys(strings.TrimSpace(item))
			in = append(in, path)
		}
	}
	return streamsOnce(in)
}

// streamsOnce returns a usage error where standard input ("-"), or another
// stream such as a named pipe, is among the inputs in more than once, by
// one name or two: it gives its bytes once. A regular file may be given
// for several.
func streamsOnce(in []string) error {
	n := 0
	for _, p := range in {
		if p == "-" {
			n++
		}
	}
	if n > 1 {
		return flagErrorf("standard input (-) is given for %d inputs: give it for one, a file for each other", n)
	}
	// A named pipe or a device given twice, by one name or two (p and ./p,
	// /dev/stdin beside -), would be opened twice, and the second open
	// waits for a writer that has gone.
	type stream struct {
		name string
		fi   os.FileInfo
	}
	var streams []stream
	for _, p := range in {
		stat := func() (os.FileInfo, error) { return os.Stat(p) }
		if p == "-" {
			stat = os.Stdin.Stat
		}
		fi, err := stat()
		if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
			continue
		}
		for _, s := range streams {
			if os.SameFile(s.fi, fi) {
				return flagErrorf("%s and %s are one stream (a pipe or a device), which gives its bytes once: give it for one input, or save it to a file", s.name, p)
			}
		}
		streams = append(streams, stream{p, fi})
	}
	return nil
}

// inputs are the files the machine flags name: the -calibrate files, the
// -hw file when it is one and the -topo capture.
func (f machineFlags) inputs() []string {
	var in []string
	files, _ := parseCalibrationFiles(*f.calibrate, predict.Pins{}, "-calibrate")
	for _, c := range files {
		in = append(in, c.path)
	}
	if hwFile(*f.hw) {
		in = append(in, *f.hw)
	}
	if *f.topo != "" {
		in = append(in, *f.topo)
	}
	return in
}

// systemGPU is the GPU of the catalog's system the -hw description spec
// names (system=NAME), "" where it names none.
func systemGPU(spec string) string {
	h, err := predict.Describe("", spec)
	if err != nil || h.System == "" {
		return ""
	}
	return h.GPU.Name
}

// logPins are the pins every log a command reads starts from: -gpu names
// the GPU of every table, and -hw system=NAME that of a table whose log
// names none, so that a system names the GPU as -gpu does in every
// command.
func (f machineFlags) logPins() (predict.Pins, error) {
	spec, _, err := f.readDescription()
	if err != nil {
		return predict.Pins{}, err
	}
	return predict.Pins{GPU: *f.gpu, SystemGPU: systemGPU(spec)}, nil
}

// machineHosts returns the GPUs a host of the machine holds for a log
// that does not place its ranks on hosts, of GPU gpu (-gpu's, or a file's
// gpu= key), and a phrase that says why, 0 where nothing gives them: -hw
// (gpus=G, a system's), else a -topo capture of two or more GPUs that
// shows the whole host (predict.Hardware.PartOfHost), else the
// catalog's platform of the GPU (an MI300X's 8, which no -hw gave) or the
// host the machine assumes for an AMD GPU the catalog lacks (its target's
// platform, or a full mesh of its links: predict's amdMesh), else the one
// count every system of the catalog with the GPU holds (a GH200's 4:
// catalogHostGPUs).
func (f machineFlags) machineHosts(gpu string) (int, string) {
	spec, _, err := f.readDescription()
	if err != nil {
		return 0, ""
	}
	h, err := predict.Describe(gpu, spec)
	if err == nil && h.PerHost() > 0 && (h.Sources.HostGPUs == predict.SourceUser || h.System != "") {
		return h.PerHost(), fmt.Sprintf("-hw gives hosts of %d GPUs", h.PerHost())
	}
	// A capture that does not read is load's error.
	if tp, _, _ := f.readCapture(); tp != nil && len(tp.GPUs()) >= 2 && !h.PartOfHost(tp) {
		// As the capture sets the host's GPUs over the catalog's
		// (Hardware.SetTopology), where it shows the whole host.
		n := len(tp.GPUs())
		return n, fmt.Sprintf("the capture %s shows hosts of %d GPUs", *f.topo, n)
	}
	switch p := h.PerHost(); {
	case err != nil || p == 0:
	case h.Sources.HostGPUs == predict.SourceCatalog:
		return p, fmt.Sprintf("a host of %s holds %d in the catalog (its platform), where nothing else gives it (-hw gpus=G does)", h.GPU.Name, p)
	case h.Sources.HostGPUs == predict.SourceAssumed:
		// An AMD GPU the catalog lacks: the host the machine assumes.
		name := h.GPU.Name
		if isa := h.CompCapISA(); isa != "" {
			name += " (" + isa + ", by its cc)"
		}
		return p, fmt.Sprintf("a host of %s is assumed to hold %d, its target's platform or a full mesh of its links, where nothing else gives it (-hw gpus=G does)", name, p)
	}
	if same, p := nccl.ISAGPUs(h.GPU.ISA), h.Platform(); err == nil && !h.GPU.Known && len(same) > 0 && p > 0 {
		// A GPU named by its target, not yet described: its target's.
		return p, fmt.Sprintf("a host of %s (the catalog's %s, of that target) holds %d in the catalog (its platform), where nothing else gives it (-hw gpus=G does)", h.GPU.Name, same[0], p)
	}
	if name, n, systems := catalogHostGPUs(gpu); n > 0 {
		return n, fmt.Sprintf("a host of %s holds %d in every system of the catalog that has it (%s), where nothing gives it (-hw gpus=G does)",
			name, n, words.And(systems))
	}
	return 0, ""
}

// studyPins are logPins for the logs a command sets against the model
// (diagnose's, plot's), which no predicted run shapes: where its log does
// not place its ranks on hosts, they fill hosts of the machine's GPUs
// (machineHosts), else of defaultHostGPUs, as the problems say.
func (f machineFlags) studyPins(logs []string) (predict.Pins, error) {
	if err := f.stdinOnce(logs); err != nil {
		return predict.Pins{}, err
	}
	pins, err := f.logPins()
	if err != nil {
		return pins, err
	}
	host, from := defaultHostGPUs, fmt.Sprintf("a host is taken to hold %d GPUs, an HGX or DGX server's count, where nothing gives it (-hw gpus=G does)", defaultHostGPUs)
	if n, why := f.machineHosts(*f.gpu); n > 0 {
		host, from = n, why
	}
	pins.Hosts, pins.HostsFrom = []predict.Comm{{Nodes: 1, PerNode: host}}, from
	return pins, nil
}

// catalogHostGPUs returns the catalog's name of the GPU named gpu, the GPUs
// of one host that every system of the catalog with that GPU holds, and
// those systems' names, where
// they all hold the same count and it is not defaultHostGPUs: a GH200's
// host holds 4 (hpe-ex254n-gh200), as do GB200's and GB300's (their NVL72
// racks' trays), so a log of 8 of them without Rank lines ran on 2 hosts,
// not on one server of 8 that no catalog system has. 0 where the GPU is not
// the catalog's, no system has it, or its systems differ (A100 and H100
// come on boards of 4 and servers of 8).
func catalogHostGPUs(gpu string) (string, int, []string) {
	g, err := nccl.ParseGPU(gpu)
	if gpu == "" || err != nil || !g.Known {
		return "", 0, nil
	}
	n, systems := 0, []string(nil)
	for _, s := range presets.Systems {
		sg, err := nccl.ParseGPU(s.GPU)
		if err != nil || sg.Name != g.Name {
			continue
		}
		if n != 0 && s.PerHost != n {
			return "", 0, nil
		}
		n, systems = s.PerHost, append(systems, s.Name)
	}
	if n == defaultHostGPUs {
		return "", 0, nil
	}
	return g.Name, n, systems
}

// defaultHostGPUs is the GPUs a host is taken to hold where a studied
// log does not place its ranks and nothing gives them: an HGX or DGX
// server's 8, the host of most public nccl-tests logs.
const defaultHostGPUs = 8

// machineOf makes the machine t's when neither -gpu nor -calibrate names
// one: the machine of a command that studies a log (diagnose, plot) is the
// log's.
func (f machineFlags) machineOf(t predict.Table) {
	if *f.gpu == "" && *f.calibrate == "" {
		*f.gpu = t.GPU
	}
}

// studies takes into mc's hardware what the tables a command sets against
// the model (diagnose's, plot's) tell of the machine: their own NCCL_DEBUG
// lines (an EFA log's platform and NICs) and the GPUs their hosts hold at
// least, with the notes on that, so that every command describes the
// machine of the same log alike.
func (mc *machine) studies(studied ...predict.Table) {
	hw, notes := mc.hw.WithEvidence(studied)
	mc.hw = hw.ForHosts(predict.HostGPUs(append(slices.Clone(studied), mc.tables...)))
	for _, n := range notes {
		mc.problems = append(mc.problems, problem{Message: n})
	}
	mc.problems = append(mc.problems, captureNICNotes(mc.topoFile, mc.capture, studied)...)
}

// sameMachine returns predict.SameMachine's error for tables of more than
// one GPU, with the flag that says they are one machine's.
func sameMachine(tables []predict.Table) error {
	err := predict.SameMachine(tables)
	if err == nil {
		return nil
	}
	// A driver that does not name a GPU prints "NVIDIA Graphics Device";
	// one name among the logs that the catalog knows is the likely machine.
	name := "NAME"
	for _, t := range tables {
		if _, e := nccl.ParseGPU(t.GPU); e == nil {
			name = strconv.Quote(t.GPU)
			break
		}
	}
	return fmt.Errorf("%w; if the logs ran on one machine, name its GPU: -gpu %s (or FILE:gpu=NAME for one file)", err, name)
}

// A machine is what the machine flags give: the calibration files read,
// their tables, the hardware, and the lines the readers set aside.
type machine struct {
	files    []string
	tables   []predict.Table
	hw       predict.Hardware
	problems []problem
	// gpu is -gpu's name, "" where it is not given.
	gpu string
	// capture is -topo's capture, read from topoFile; nil without one.
	capture  *topo.Topology
	topoFile string
}

// gpuNames returns the GPU's names as given: -gpu's, else each table's.
func (m machine) gpuNames() []string {
	if m.gpu != "" {
		return []string{m.gpu}
	}
	var names []string
	for _, t := range m.tables {
		if t.GPU != "" && t.GPU != predict.UnnamedGPU {
			names = append(names, t.GPU)
		}
	}
	return names
}

// load reads what the machine flags name, base (from -algo and -proto)
// pinning every calibration file that does not pin its own. perNode is
// the GPUs per node of the command's query, 0 for none: with the tables'
// it bounds a host's GPUs, which tells a board of four from one of eight
// (predict.Hardware.ForHosts). A table whose log does not say how its
// ranks sat on hosts is taken to have run on hosts of base.HostGPUs, the
// command's own, as its problems say. studied are the tables the command
// sets against the model (diagnose's, plot's): like the calibration
// tables, their runs must fit the hosts described.
func (f machineFlags) load(base predict.Pins, perNode int, studied ...predict.Table) (machine, error) {
	pins, err := f.logPins()
	if err != nil {
		return machine{}, err
	}
	if err := f.stdinOnce(nil); err != nil {
		return machine{}, err
	}
	base.GPU, base.SystemGPU = pins.GPU, pins.SystemGPU
	files, err := parseCalibrationFiles(*f.calibrate, base, "-calibrate")
	if err != nil {
		return machine{}, err
	}
	most := 0
	for _, c := range base.Hosts {
		most = max(most, c.PerNode)
	}
	for i := range files {
		// A table whose log does not place its ranks is taken to have
		// filled the machine's hosts (of its file's GPU) where they hold
		// as many as any predicted run's GPUs a node or more, which stand
		// after.
		p := &files[i].pins
		if len(base.Hosts) == 0 || base.HostsFrom != "" {
			continue
		}
		if n, why := f.machineHosts(p.GPU); n >= most {
			p.Hosts, p.HostsFrom = append([]predict.Comm{{PerNode: n}}, base.Hosts...), why
		}
	}
	spec, _, err := f.readDescription()
	if err != nil {
		return machine{}, err
	}
	var m machine
	m.files, m.tables, m.problems, err = readCalibration(files)
	switch {
	case errors.Is(err, errNoCalibrationTable) && (*f.gpu != "" || systemGPU(spec) != ""):
		// The files were read, and every table left out: the machine the
		// flags name stands, uncalibrated, as the problems say.
		m.problems = append(m.problems, problem{Message: fmt.Sprintf("-calibrate: no table of %s is left to calibrate on (the lines above say why): the prediction is uncalibrated", strings.Join(m.files, ", "))})
		m.files = nil
	case errors.Is(err, errNoCalibrationTable):
		return machine{}, fmt.Errorf("-calibrate: %w; or give -gpu NAME to predict from the GPU's name alone", err)
	case err != nil:
		return machine{}, fmt.Errorf("-calibrate: %w", err)
	}
	if err := sameMachine(m.tables); err != nil {
		return machine{}, err
	}
	m.problems = append(m.problems, pinnedAlike(files, base)...)
	tp, bad, err := f.readCapture()
	if err != nil {
		return machine{}, err
	}
	hw, problems, capture, err := captureHardware(*f.gpu, spec, *f.topo, tp, bad, m.tables)
	if err != nil {
		_, kvs, _ := f.readDescription()
		return machine{}, hwError(*f.hw, kvs, err)
	}
	m.capture, m.topoFile = capture, *f.topo
	problems = append(problems, captureNICNotes(*f.topo, capture, m.tables)...)
	m.gpu = *f.gpu
	if msg := hwDescribesNothing(*f.hw, spec, "-gpu, the logs, the capture and the catalog"); msg != "" {
		problems = append([]problem{{Message: msg}}, problems...)
	}
	if cc := amdCompCap(&hw); cc > 0 {
		// The facts show the GPU's name and an assumed fabric: this says
		// what made the GPU AMD's, where no guess of it says so.
		if _, guessed := gpuGuess(hw.Facts(), predict.RanRCCL(m.tables), cc); !guessed {
			links := ""
			if hw.Fabric == predict.FabricInfinity && hw.Sources.Fabric != predict.SourceUser {
				links = fmt.Sprintf(", its %d links Infinity Fabric, one to each peer", hw.GPU.NVLinks)
			}
			problems = append(problems, problem{Message: fmt.Sprintf("-hw: %s is taken as AMD's, run by RCCL's rules%s (%s)", hw.GPU.Name, links, amdWhy(hw.GPU.Name, cc, false))})
		}
	}
	if err := tablesFitHost(hw, append(slices.Clone(m.tables), studied...)); err != nil {
		return machine{}, err
	}
	perNode = max(perNode, predict.HostGPUs(m.tables))
	if !hw.GPU.Known && hw.Sources.LinkBW != predict.SourceUser && len(m.tables) == 0 {
		// Calibrate says so in its notes where there are tables.
		what := hw.GPU.Name + " is not in commlab's catalog"
		if hw.GPU.Name == predict.UnnamedGPU {
			what = "the logs name no GPU (-gpu NAME names it)"
		}
		// The studied logs' NCCL lines may place it on an NVSwitch
		// (WithEvidence), which their own note says.
		taken, describe := "a PCIe card of compute capability 9.0 without NVLink", "-hw cc=X.Y,links=N,link-bw=RATE (an AMD Instinct host is fabric=infinity)"
		if why := amdWhy(hw.GPU.Name, amdCompCap(&hw), predict.RanRCCL(studied)); why != "" {
			taken, describe = "a PCIe card of compute capability 9.0 without Infinity Fabric", "-hw cc=X.Y,fabric=infinity,links=N,link-bw=RATE ("+why+")"
		}
		if ev, _ := hw.WithEvidence(studied); ev.Fabric != predict.FabricPCIe {
			// The fabric is the capture's or -hw's where they give it.
			shows := map[predict.Source]string{predict.SourceTopo: "the capture shows", predict.SourceUser: "-hw gives"}[ev.Sources.Fabric]
			if shows == "" {
				shows = "the logs' NCCL lines show"
			}
			taken = fmt.Sprintf("a GPU of compute capability 9.0 on the %s %s, its links assumed", ev.Fabric, shows)
		}
		problems = append(problems, problem{Message: fmt.Sprintf("%s: it is taken as %s; describe it with %s", what, taken, describe)})
	}
	if err := hw.HostFits(perNode); err != nil {
		return machine{}, flagErrorf("%v: give the run's GPUs a node, at most a host's", err)
	}
	if msg := hw.MeshNote(perNode); msg != "" {
		problems = append(problems, problem{Message: msg})
	}
	if g := hw.PerHost(); *f.topo != "" && hw.Sources.HostGPUs == predict.SourceTopo && perNode > g {
		// A container's capture may show part of its host: a warning,
		// not the bound a system or -hw gpus sets.
		problems = append(problems, problem{Message: fmt.Sprintf("%s: the capture shows %d GPUs, and the run %d a node: a capture of part of the host (a container's) or of another machine; the capture's fabric and NICs are taken for the whole host (-hw gpus=%d says it holds %d)",
			*f.topo, g, perNode, perNode, perNode)})
	} else if capture != nil && len(capture.GPUs()) == 1 && perNode > 1 {
		// A capture of one GPU shows no fabric, and SetTopology takes
		// every NIC it shows for the host's.
		what := "it shows no fabric, and its NICs are taken for the whole host's"
		if hw.Sources.NICs != predict.SourceTopo {
			what = "it shows no fabric and no NIC, and settles nothing of the host"
		}
		problems = append(problems, problem{Message: fmt.Sprintf("%s: the capture shows 1 GPU, and the run %d a node: a capture of part of the host (a container's) or of another machine; %s",
			*f.topo, perNode, what)})
	}
	// The GPUs a node of a studied table are its log's or assumed
	// (studies), not the user's query.
	query := perNode
	if len(studied) > 0 {
		query = 0
	}
	hw, notes := hw.FromTables(m.tables, query)
	for _, n := range notes {
		problems = append(problems, problem{Message: n})
	}
	m.hw, m.problems = hw, append(m.problems, problems...)
	return m, nil
}

// tablesFitHost refuses a table whose run needs hosts of more GPUs than
// the description gives them (HostFits of the table's own HostGPUs),
// naming the table, what of its run contradicts the description, and the
// flags that settle it.
func tablesFitHost(hw predict.Hardware, tables []predict.Table) error {
	// A host's own GPUs, as the Rank lines show them, bound it whatever
	// the NVLink domain, where a node of NCCL's may span hosts.
	host := hw
	host.Domain = 0
	for _, t := range tables {
		n := predict.HostGPUs([]predict.Table{t})
		err := hw.HostFits(n)
		if shown := t.DevicesShown(); err == nil && shown > 0 {
			if err = host.HostFits(shown); err != nil {
				n = shown
			}
		}
		if err == nil {
			continue
		}
		ran := "the log ran"
		if n > t.PerNode {
			ran = fmt.Sprintf("the log ran %d GPUs a node on device %d of its hosts, so at least", t.PerNode, n-1)
		}
		fix := fmt.Sprintf("give -hw gpus=%d or more", n)
		if hw.System != "" {
			fix = "leave out -hw system=" + hw.System + ", which does not describe the log's hosts"
		}
		return flagErrorf("%s: %s %v: %s, or FILE:per-node=G where the log's ranks sat otherwise", t.Name, ran, err, fix)
	}
	return nil
}
