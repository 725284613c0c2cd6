package predict

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// What the description of a machine says after the evidence of a public
// log (Describe, then Hardware.WithEvidence, then ForHosts with the Rank
// lines' GPUs per host), as the command line builds it: each fact checked
// has the value the log's source gives and the source commlab must name.
// A fact that the log does not state stays assumed even where its value
// is right. The files are those of data/nccltests/testdata/real, whose
// "# Source:" lines cite the systems.
func TestDescribeRealLogs(t *testing.T) {
	type want struct {
		value  string
		source Source
	}
	for _, c := range []struct {
		file           string
		gpu            string // a pin for Rank lines without a GPU name
		nodes, perNode int    // from the Rank lines' hosts
		facts          map[string]want
		note           string // in WithEvidence's one note, "" for none
	}{
		// 2 x 4 GH200 on Alps: the Rank lines put ranks 0-3 on nid005471 and
		// 4-7 on nid005487. A board of four GH200 joins each pair by NVLinks
		// of its own: a mesh without NVLS, assumed since no line says so. The
		// catalog's Grace CPU is Arm. The source's hardware page gives four
		// NICs a node, one per GPU, which no line of the log states.
		{file: "gh200_2x4_allreduce_slingshot_alps.log", nodes: 2, perNode: 4, facts: map[string]want{
			"fabric":        {"mesh", SourceAssumed},
			"nvls":          {"false", SourceAssumed},
			"cpu":           {"arm", SourceCatalog},
			"nics_per_node": {"one per GPU", SourceAssumed},
		}},
		// 4 GeForce RTX 4090s of one process (kalavai-client): PCIe cards,
		// whose link the catalog gives (PCIe Gen4, 24 GB/s a direction),
		// without P2P between GeForce RTX 40 cards.
		{file: "rtx4090_1x4_g4_allreduce_docker_kalavai.log", nodes: 1, perNode: 4, facts: map[string]want{
			"fabric":  {"pcie", SourceAssumed},
			"links":   {"0", SourceCatalog},
			"link_bw": {"PCIe Gen4 24 GB/s, no P2P", SourceCatalog},
		}},
		// 2 x 8 A100 on p4d over EFA: the Rank lines put 8 ranks on each of
		// two workers; NCCL 2.9.9's debug lines say nothing of NVLS and give
		// no NIC count ("ndev" or "found N nics"), but its channel lines name
		// the devices NET/AWS Libfabric/0 to /3: a p4d's four EFA NICs. An
		// 8-GPU A100 host is an NVSwitch board; A100 has no NVLS. The plugin
		// names the platform ("NET/OFI Running on P4d platform", line 30), whose
		// catalog entry gives what AWS documents: 8 A100s, 4x 100 Gigabit,
		// Intel Xeon CPUs and the NVSwitch.
		{file: "a100_2x8_allreduce_efa_p4d_ncclinfo.log", nodes: 2, perNode: 8, facts: map[string]want{
			"gpus_per_node": {"8", SourceCatalog},
			"fabric":        {"nvswitch", SourceCatalog},
			"nvls":          {"false", SourceCatalog},
			"nics_per_node": {"4", SourceNCCLDebug},
			"nic_bw":        {"100 Gb/s", SourceCatalog},
			"cpu":           {"intel", SourceCatalog},
		}, note: "platform p4d.24xlarge (line 30)"},
		// 2 x 8 MI355X over Pollara 400 RoCE: the Rank lines name no GPU, so
		// the user names it. The README's script lists eight RoCE devices
		// (NCCL_IB_HCA) of AMD's 400 Gb/s Pollara NIC, one per GPU, which no
		// line of the log states; the GPUs reach each other over Infinity
		// Fabric, whose link count the catalog holds (seven peers).
		{file: "mi355x_2x8_allreduce_pollara_roce.log", gpu: "AMD Instinct MI355X", nodes: 2, perNode: 8, facts: map[string]want{
			"gpu":           {"AMD Instinct MI355X", SourceCatalog},
			"fabric":        {"infinity", SourceCatalog},
			"links":         {"7", SourceCatalog},
			"nvls":          {"false", SourceCatalog},
			"nics_per_node": {"one per GPU", SourceAssumed},
			"nic_bw":        {"400 Gb/s", SourceAssumed},
		}},
		// 1 x 8 H800: "NVLS multicast support is available on dev 4" (line 42)
		// makes NVLS, and with it NVSwitch, a fact of NCCL's debug lines.
		// "Using network Socket" (line 25): the NICs' rate is an Ethernet
		// port's, assumed, not Hopper's RDMA NICs'.
		{file: "h800_1x8_broadcast_ncclinfo.log", nodes: 1, perNode: 8, facts: map[string]want{
			"fabric": {"nvswitch", SourceNCCLDebug},
			"nvls":   {"true", SourceNCCLDebug},
			"nic_bw": {"25 Gb/s", SourceAssumed},
		}, note: "NCCL ran over sockets"},
	} {
		t.Run(c.file, func(t *testing.T) {
			var pins func(int) Pins
			if c.gpu != "" {
				pins = func(int) Pins { return Pins{GPU: c.gpu} }
			}
			tabs, problems, err := ReadFile("../../data/nccltests/testdata/real/"+c.file, pins)
			if err != nil || len(tabs) == 0 || len(problems) != 0 {
				t.Fatalf("%d tables, problems %v, %v", len(tabs), problems, err)
			}
			tab := tabs[0]
			if tab.Nodes != c.nodes || tab.PerNode != c.perNode {
				t.Errorf("%d nodes of %d GPUs, want %d of %d", tab.Nodes, tab.PerNode, c.nodes, c.perNode)
			}
			h, err := Describe(tab.GPU, "")
			if err != nil {
				t.Fatal(err)
			}
			h, notes := h.WithEvidence(tabs)
			if c.note == "" && len(notes) != 0 || c.note != "" && (len(notes) != 1 || !strings.Contains(notes[0], c.note)) {
				t.Errorf("notes %q, want %q (one table)", notes, c.note)
			}
			h = h.ForHosts(tab.PerNode)
			got := map[string]want{}
			for _, f := range h.Facts() {
				got[f.Name] = want{f.Value, f.Source}
			}
			for name, w := range c.facts {
				if got[name] != w {
					t.Errorf("%s: %q from %s, want %q from %s", name, got[name].value, got[name].source, w.value, w.source)
				}
			}
		})
	}
}

// Without a GPU name on its Rank lines, a table is kept as UnnamedGPU, a
// GPU the catalog does not hold, with a problem that says how to name it;
// it calibrates with its facts assumed.
func TestReadFileNoGPUName(t *testing.T) {
	// mi355x_2x8_allreduce_pollara_roce.log:11: "#  Rank  0 Group  0 Pid 2908511 on mi355-gpu-23 device  0 [0000:75:00]"
	tabs, problems, err := ReadFile("../../data/nccltests/testdata/real/mi355x_2x8_allreduce_pollara_roce.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tabs) != 1 || tabs[0].GPU != UnnamedGPU || len(problems) != 1 {
		t.Fatalf("%d tables, problems %v; want one of UnnamedGPU and one problem", len(tabs), problems)
	}
	h, err := Describe(tabs[0].GPU, "")
	if err != nil || h.GPU.Known || h.Sources.GPU != SourceAssumed {
		t.Fatalf("Describe(%q): %+v, %v; want an unknown GPU, assumed", tabs[0].GPU, h, err)
	}
	if _, err := Calibrate(h, tabs, nil); err != nil {
		t.Errorf("calibrating the unnamed GPU's table: %v", err)
	}
	if msg := problems[0].Error(); !strings.Contains(msg, ":11:") || !strings.Contains(msg, "gpu=NAME") {
		t.Errorf("problem %q, want one at line 11 that names gpu=NAME", msg)
	}
	// A system the user names gives the table its GPU, without the
	// problem; a GPU pin comes first.
	for _, c := range []struct {
		pins Pins
		want string
	}{
		{Pins{SystemGPU: "MI355X"}, "MI355X"},
		{Pins{GPU: "MI300X", SystemGPU: "MI355X"}, "MI300X"},
	} {
		tabs, problems, err := ReadFile("../../data/nccltests/testdata/real/mi355x_2x8_allreduce_pollara_roce.log", func(int) Pins { return c.pins })
		if err != nil || len(tabs) != 1 || tabs[0].GPU != c.want || len(problems) != 0 {
			t.Errorf("pins %+v: tables %v, problems %v, %v; want one of %s and no problem", c.pins, tabs, problems, err, c.want)
		}
	}
}

// TestNodesFromNCCL: nccl#1244's H20 log was posted without its Rank
// lines, so nothing tells the node count; with NCCL's comm line ("comm 0x55d3 rank 0 nRanks
// 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0", init.cc) added before the
// table, the table reads as 2 nodes of 8 GPUs.
func TestNodesFromNCCL(t *testing.T) {
	b, err := os.ReadFile("../../data/logs/h20_2x8_allreduce_nvls_nccl1244.log")
	if err != nil {
		t.Fatal(err)
	}
	if tabs, _, err := ReadBytes(b, "h20.log", nil); err != nil || len(tabs) != 0 {
		t.Fatalf("the log alone: %d tables, %v; want none (the node count unknown)", len(tabs), err)
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	with := first + "\nnode1:1:1 [0] NCCL INFO comm 0x55d3 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n" + rest
	tabs, _, err := ReadBytes([]byte(with), "h20.log", nil)
	if err != nil || len(tabs) != 1 || tabs[0].Nodes != 2 || tabs[0].PerNode != 8 {
		t.Fatalf("with NCCL's comm line: %d tables %+v, %v; want one of 2 x 8", len(tabs), tabs, err)
	}
}

// TestNodesFromNCCLUnderMNNVL: under MNNVL nNodes counts NVLink cliques,
// not hosts (LogNodes leaves it), so nccl#1244's log without its Rank
// lines and with the comm line "nNodes 1 localRanks 16 ... MNNVL 1" does
// not give its hosts. It takes the hosts Pins.Hosts gives, as the log
// without the comm line does: 2 nodes of 8 for hosts of 8, the table's 16
// ranks. It was left out, "node count unknown", however the hosts were
// given (red team C, finding 5). With the hosts assumed, the comm line
// groups both into one NVLink domain (runDomains: localRanks 16, the two
// hosts' GPUs).
func TestNodesFromNCCLUnderMNNVL(t *testing.T) {
	b, err := os.ReadFile("../../data/logs/h20_2x8_allreduce_nvls_nccl1244.log")
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	pins := func(int) Pins {
		return Pins{Hosts: []Comm{{Nodes: 1, PerNode: 8}}, HostsFrom: "-hw gives hosts of 8 GPUs"}
	}
	for _, comm := range []string{"", "node1:1:1 [0] NCCL INFO comm 0x55d3 rank 0 nRanks 16 nNodes 1 localRanks 16 localRank 0 MNNVL 1\n"} {
		tabs, problems, err := ReadBytes([]byte(first+"\n"+comm+rest), "h20.log", pins)
		if err != nil || len(tabs) != 1 || tabs[0].Nodes != 2 || tabs[0].PerNode != 8 || tabs[0].ShapeFrom != SourceAssumed {
			t.Fatalf("comm line %q: %d tables %+v, %v, problems %v; want one of 2 x 8, assumed", comm, len(tabs), tabs, err, problems)
		}
		if !slices.ContainsFunc(problems, func(e error) bool {
			return strings.Contains(e.Error(), "2 nodes of 8 GPUs are assumed, as -hw gives hosts of 8 GPUs")
		}) {
			t.Errorf("comm line %q: problems %v; want the hosts' assumption said", comm, problems)
		}
		if d, hosts, ok := runDomains(&tabs[0]); comm != "" && (!ok || d != 1 || hosts != 2) {
			t.Errorf("comm line %q: %d domains of %d hosts, %v; want one of both", comm, d, hosts, ok)
		}
	}
}
