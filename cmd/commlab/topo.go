package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/topo"
)

func init() {
	registerWarn("topo", "read `nvidia-smi topo -m` output (or a preset): paths, closest NICs, bindings", runTopo)
}

type topoGPU struct {
	Name      string `json:"name"`
	NUMA      int    `json:"numa"`
	NIC       string `json:"nic"`
	Path      string `json:"path"`
	Device    string `json:"device"`
	NCCLPath  string `json:"nccl_path"`
	GDR       bool   `json:"gdr"`
	GPUsOnNIC int    `json:"gpus_on_nic"`
	CPUs      string `json:"cpus"`
	NCCLIBHCA string `json:"nccl_ib_hca"`
}

type topoNIC struct {
	Name   string `json:"name"`
	NUMA   int    `json:"numa"`
	Device string `json:"device"`
}

type topoPair struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Path string `json:"path"`
}

type topoFabric struct {
	Kind  string `json:"kind"`
	GPUs  int    `json:"gpus"`
	Links int    `json:"links"`
}

type topoOut struct {
	Source   string     `json:"source"`
	GPUs     []topoGPU  `json:"gpus"`
	NICs     []topoNIC  `json:"nics"`
	Pairs    []topoPair `json:"pairs"`
	Fabric   topoFabric `json:"fabric"`
	Problems []problem  `json:"problems"`
}

func runTopo(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("topo")
	output := addFormatFlags(fs)
	preset := fs.String("preset", "", "a built-in topology instead of FILE: h20-article (the article's 8 x H20 / 4-NIC server) or one of "+strings.Join(data.Topologies(), ", "))
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab topo [-format text|json|csv] FILE | -preset NAME\n\nFILE is the text `nvidia-smi topo -m` prints; - reads standard input.\n"+
			"The CSV holds the GPUs, one a line, with their NICs and bindings.\n"+
			"Damage the reader reads past (a short row, an asymmetric pair) is reported on\n"+
			"standard error as FILE:LINE[:COLUMN]: message, or with -format json in \"problems\".")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args, 1)
	if err != nil {
		return err
	}
	format, err := output.get()
	if err != nil {
		return err
	}
	t, source, problems, err := loadTopology(pos, *preset)
	if err != nil {
		return err
	}
	switch format {
	case formatJSON:
		return writeJSON(stdout, topoJSON(t, source, problems))
	case formatCSV:
		writeProblems(stderr, topoProblems(source, problems))
		return writeCSV(stdout, topoJSON(t, source, problems).GPUs)
	}
	writeProblems(stderr, topoProblems(source, problems))
	fmt.Fprintf(stdout, "%s: ", source)
	if err := topo.WriteReport(stdout, t); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\nGPU fabric: %s\n", topo.InferFabric(t))
	return err
}

// loadTopology reads FILE or the preset; exactly one must be given. problems
// are the warnings of reading FILE (FILE "-" is standard input).
func loadTopology(pos []string, preset string) (t *topo.Topology, source string, problems []*topo.ParseError, err error) {
	switch {
	case preset != "" && len(pos) > 0:
		return nil, "", nil, fmt.Errorf("give FILE or -preset, not both")
	case preset == "h20-article":
		return topo.H20Article(), "preset h20-article", nil, nil
	case preset != "":
		t, err := data.Topology(preset)
		return t, "preset " + preset, nil, err
	case len(pos) == 0:
		return nil, "", nil, fmt.Errorf("need FILE (nvidia-smi topo -m output) or -preset h20-article")
	}
	name := pos[0]
	if name == "-" {
		t, problems, err = topo.Parse(os.Stdin)
	} else {
		t, problems, err = readTopo(name)
	}
	return t, name, problems, err
}

func topoJSON(t *topo.Topology, source string, problems []*topo.ParseError) topoOut {
	out := topoOut{Source: source, GPUs: []topoGPU{}, NICs: []topoNIC{}, Pairs: []topoPair{}, Problems: topoProblems(source, problems)}
	for i, b := range t.Bindings() {
		out.GPUs = append(out.GPUs, topoGPU{
			Name: b.GPU, NUMA: t.GPU(i).NUMA, NIC: b.NIC, Path: pathOrEmpty(b), Device: b.Device,
			NCCLPath: b.NCCL.String(), GDR: b.GDR, GPUsOnNIC: b.Sharing, CPUs: b.CPUs.String(), NCCLIBHCA: b.NCCLIBHCA,
		})
	}
	for _, n := range t.NICs() {
		out.NICs = append(out.NICs, topoNIC{Name: n.Name, NUMA: n.NUMA, Device: n.Device})
	}
	for _, p := range t.Pairs() {
		out.Pairs = append(out.Pairs, topoPair{A: p.A, B: p.B, Path: p.Path.String()})
	}
	f := topo.InferFabric(t)
	out.Fabric = topoFabric{Kind: f.Kind.String(), GPUs: f.P, Links: f.Links}
	return out
}

// topoProblems are the warnings of reading source as problems.
func topoProblems(source string, problems []*topo.ParseError) []problem {
	out := []problem{}
	for _, p := range problems {
		out = append(out, problemOf(source, p))
	}
	return out
}

// pathOrEmpty is the GPU's path to its NIC, "" when it has none.
func pathOrEmpty(b topo.Binding) string {
	if b.NIC == "" {
		return ""
	}
	return b.Path.String()
}
