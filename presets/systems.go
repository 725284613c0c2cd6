package presets

import (
	"slices"
	"strings"
)

// A System is a server or rack of a defined build: what its maker's
// documentation states of it beyond the GPU. It is the catalog behind the
// server presets (ServerByName) and the system key of commlab's -hw
// (predict.Describe).
type System struct {
	// Name is the system's name ("dgx-h100").
	Name string
	// GPU is its GPU as nccl.ParseGPU knows it ("H100 SXM").
	GPU string
	// PerHost is the GPUs of one host; Domain the GPUs of one NVLink
	// domain where it spans hosts (72 for an NVL72 rack), else 0.
	PerHost, Domain int
	// Fabric is how a host's GPUs reach each other: "nvswitch", or "mesh"
	// where each pair is joined by NVLinks of its own.
	Fabric string
	// NICs and NICBW are the NICs of one host for the network between
	// hosts and one NIC's line rate, B/s; 0 where the build leaves them
	// to the buyer.
	NICs  int
	NICBW float64
	// Source cites the documentation.
	Source string
}

// Systems are the systems the catalog holds.
var Systems = []System{
	{"dgx-a100", "A100-SXM4-80GB", 8, 0, "nvswitch", 8, 200e9 / 8,
		"DGX A100: 8 A100 SXM4 with 12 NVLinks to 6 NVSwitches, 8 ConnectX-6 HDR NICs of 200 Gb/s for the compute network (DGX A100 user guide)"},
	{"dgx-h100", "H100 80GB HBM3", 8, 0, "nvswitch", 8, 400e9 / 8,
		"DGX H100: 8 H100 SXM with 18 NVLinks to 4 NVSwitches, 8 ConnectX-7 NDR NICs of 400 Gb/s for the compute network (DGX H100 user guide)"},
	{"dgx-b200", "B200", 8, 0, "nvswitch", 8, 400e9 / 8,
		"DGX B200: 8 B200 with 18 NVLinks to 2 NVSwitches, 8 ConnectX-7 NICs of 400 Gb/s for the compute network (DGX B200 user guide)"},
	{"gb200-nvl72", "GB200", 4, 72, "nvswitch", 4, 400e9 / 8,
		"GB200 NVL72: 18 compute trays of 4 GB200, one NVLink domain of 72 through the rack's NVSwitch trays, a 400 Gb/s ConnectX-7 NIC per GPU between racks (GB200 NVL72 reference architecture)"},
	{"hgx-a100-4gpu", "A100-SXM4-80GB", 4, 0, "mesh", 0, 0,
		"HGX A100 4-GPU: 4 A100 SXM4 joined directly, 4 NVLinks between each pair, no NVSwitch (HGX A100 datasheet); the NICs are the server's"},
	{"hgx-h100-4gpu", "H100 80GB HBM3", 4, 0, "mesh", 0, 0,
		"HGX H100 4-GPU: 4 H100 SXM joined directly, 6 NVLinks between each pair, no NVSwitch (HGX H100 datasheet); the NICs are the server's"},
}

// SystemByName returns the system of that name, in any case.
func SystemByName(name string) (System, bool) {
	i := slices.IndexFunc(Systems, func(s System) bool { return s.Name == strings.ToLower(name) })
	if i < 0 {
		return System{}, false
	}
	return Systems[i], true
}

// SystemNames lists the systems' names, comma-separated.
func SystemNames() string {
	names := make([]string, len(Systems))
	for i, s := range Systems {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}
