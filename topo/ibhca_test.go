package topo

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestIBHCARails: the host's NCCL_IB_HCA leaves out the NICs no GPU of
// the capture is nearest, unless they look like the rails of GPUs the
// capture does not show (red team 47b, finding 3), where it gives none,
// as PartOfHost, the one test predict applies too, says:
//   - testdata/hgx_h100_two_of_eight_gpus.txt, GPU0 and GPU1 of an HGX
//     H100 with its 8 NICs: 6 left out beside 2 kept;
//   - three GPUs, each with its own PIX NIC, and a fourth NIC PXB to GPU2's
//     NIC (a rail on GPU2's switch whose GPU is not shown): 1 left out
//     beside 3, but on a kept NIC's switch;
//   - the same with the fourth NIC SYS to everything, as a storage NIC on
//     a socket without GPUs: left out, with a list of the other three;
//   - testdata/dgx_a100_nps4.txt, the storage NICs NIC4 and NIC5 (SYS to
//     every GPU and NIC kept) left out beside 8.
func TestIBHCARails(t *testing.T) {
	small := func(p string) *Topology {
		rows := []string{
			"\tGPU0\tGPU1\tGPU2\tNIC0\tNIC1\tNIC2\tNIC3",
			"GPU0\t X \tNV4\tNV4\tPIX\tNODE\tNODE\tSYS",
			"GPU1\tNV4\t X \tNV4\tNODE\tPIX\tNODE\tSYS",
			"GPU2\tNV4\tNV4\t X \tNODE\tNODE\tPIX\t" + p,
			"NIC0\tPIX\tNODE\tNODE\t X \tNODE\tNODE\tSYS",
			"NIC1\tNODE\tPIX\tNODE\tNODE\t X \tNODE\tSYS",
			"NIC2\tNODE\tNODE\tPIX\tNODE\tNODE\t X \t" + p,
			"NIC3\tSYS\tSYS\t" + p + "\tSYS\tSYS\t" + p + "\t X ",
			"", "NIC Legend:", "", "  NIC0: mlx5_0", "  NIC1: mlx5_1", "  NIC2: mlx5_2", "  NIC3: mlx5_3",
		}
		return mustParse(t, strings.Join(rows, "\n")+"\n")
	}
	two, _, err := ParseFile("testdata/hgx_h100_two_of_eight_gpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	dgx, _, err := ParseFile("testdata/dgx_a100_nps4.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		top   *Topology
		value string
		rails int
	}{
		{"2 of 8", two, "", 6},
		{"a rail on a kept NIC's switch", small("PXB"), "", 1},
		{"a storage NIC", small("SYS"), "=mlx5_0,mlx5_1,mlx5_2", 0},
		{"DGX A100", dgx, "=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_6,mlx5_7,mlx5_8,mlx5_9", 0},
	} {
		h := c.top.IBHCA()
		if c.top.PartOfHost(0) != (c.rails > 0) {
			t.Errorf("%s: PartOfHost %v, where the advice names %d rails", c.name, c.top.PartOfHost(0), c.rails)
		}
		if h.Value != c.value || len(h.Rails) != c.rails {
			t.Errorf("%s: %+v, want value %q and %d rails", c.name, h, c.value, c.rails)
		}
		a := h.Advice()
		if part := strings.Contains(a, "may show part of the host"); part != (c.rails > 0) || c.rails > 0 && !strings.Contains(a, h.Rails[0]) {
			t.Errorf("%s: advice %q", c.name, a)
		}
		if c.rails > 0 && (len(h.Left) > 0 || slices.ContainsFunc(h.Rails, func(r string) bool { return !strings.Contains(r, "mlx5_") })) {
			t.Errorf("%s: %+v: want the rails named, nothing left out", c.name, h)
		}
	}
}

// TestIBHCADamagedLegend: a NIC Legend that names one device for two NICs,
// or a device holding NCCL_IB_HCA's syntax or a blank, gives no
// NCCL_IB_HCA (red team C, finding 6, where the advice read
// "=mlx5_0,mlx5_0", "=mlx5_0,mlx5_9,mlx5_1" and "==mlx5_0,^mlx5_1"):
// testdata/damaged/legend_duplicate.txt and legend_syntax.txt, whose NICs
// would otherwise each be a GPU's nearest (PIX); and a topology built with
// New the same way. The same capture with the devices mended gives
// "=mlx5_0,mlx5_1" (NIC0 and NIC1, PIX to GPU0 and GPU1; NIC2 SYS to both).
func TestIBHCADamagedLegend(t *testing.T) {
	for _, f := range []string{"legend_duplicate.txt", "legend_syntax.txt"} {
		top, problems, err := ParseFile("testdata/damaged/" + f)
		if err != nil || len(problems) == 0 {
			t.Fatalf("%s: %v, problems %v", f, err, problems)
		}
		if h := top.IBHCA(); h.Value != "" || h.Advice() != "" {
			t.Errorf("%s: %+v, advice %q; want none", f, h, h.Advice())
		}
	}
	b, err := os.ReadFile("testdata/damaged/legend_duplicate.txt")
	if err != nil {
		t.Fatal(err)
	}
	mended := strings.Replace(string(b), "NIC1: mlx5_0", "NIC1: mlx5_1", 1)
	top, problems, err := ParseString(mended)
	if err != nil || len(problems) > 0 {
		t.Fatalf("mended: %v, problems %v", err, problems)
	}
	if h := top.IBHCA(); h.Value != "=mlx5_0,mlx5_1" {
		t.Errorf("mended: %+v, want =mlx5_0,mlx5_1", h)
	}
	for _, devices := range [][2]string{{"mlx5_0", "mlx5_0"}, {"mlx5_0,mlx5_9", "mlx5_1"}, {"=mlx5_0", "^mlx5_1"}} {
		built, err := New([]Device{{Name: "GPU0"}}, []Device{{Name: "NIC0", Device: devices[0]}, {Name: "NIC1", Device: devices[1]}})
		if err != nil {
			t.Fatal(err)
		}
		if h := built.IBHCA(); h.Value != "" {
			t.Errorf("New with devices %q: %+v; want none", devices, h)
		}
	}
}

// TestPartOfHostHostSize: a capture of as many GPUs as its host is known
// to hold is the whole host, whatever its NICs (review 49b, finding 1):
// testdata/dgx_h100_storage_nic_pxb.txt, all 8 GPUs of a DGX H100 with a
// storage port PXB to GPU3's compute NIC, looks like part of a host by its
// NICs alone; held against a host of 8 it is not, and NCCL_IB_HCA names
// the 8 compute NICs. 2 of 8 GPUs stay part of a host of 8.
func TestPartOfHostHostSize(t *testing.T) {
	var whole, part *Topology
	for f, top := range map[string]**Topology{"dgx_h100_storage_nic_pxb.txt": &whole, "hgx_h100_two_of_eight_gpus.txt": &part} {
		var err error
		if *top, _, err = ParseFile("testdata/" + f); err != nil {
			t.Fatal(err)
		}
	}
	if !whole.PartOfHost(0) || whole.PartOfHost(8) || !part.PartOfHost(8) || part.PartOfHost(2) {
		t.Errorf("8 GPUs: %v unknown, %v of 8; 2 GPUs: %v of 8, %v of 2", whole.PartOfHost(0), whole.PartOfHost(8), part.PartOfHost(8), part.PartOfHost(2))
	}
	if h := whole.IBHCAOf(8); h.Value != "=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_6,mlx5_7,mlx5_8,mlx5_9" || len(h.Rails) > 0 {
		t.Errorf("IBHCAOf(8): %+v", h)
	}
}
