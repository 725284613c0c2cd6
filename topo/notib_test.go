package topo

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestNotIB: NCCL_IB_HCA filters the devices NCCL's InfiniBand transport
// lists, the verbs devices whose link layer is InfiniBand or Ethernet
// (src/transport/net_ib/init.cc:317-370 in NCCL 2.30.7: the env is read,
// ibv_get_device_list, "if (portAttr.link_layer !=
// IBV_LINK_LAYER_INFINIBAND && portAttr.link_layer !=
// IBV_LINK_LAYER_ETHERNET) continue;" before matchIfList), and
// aws-ofi-nccl never reads it (no NCCL_IB_HCA in aws/aws-ofi-nccl at
// 2daf7d30). Slingshot's cxi devices are no verbs devices and EFA's have
// neither link layer: topo gave NCCL_IB_HCA=cxi0 for the red team's
// 4 x H100 capture whose NIC Legend names cxi0..cxi3; it gives none, and
// says what picks the NICs. Verbs devices keep the host's value.
func TestNotIB(t *testing.T) {
	b, err := os.ReadFile("testdata/real/nv4_4gpu_empty_cpu_affinity_slurm.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prefix string
		ib     bool
		says   string
	}{
		{"mlx5_", true, ""}, {"bnxt_re", true, ""}, {"ionic_", true, ""}, {"rocep1s0f", true, ""}, {"ibp12s", true, ""}, {"irdma", true, ""},
		{"cxi", false, "HPE Slingshot"}, {"efa_", false, "EFA"}, {"rdmap16s", false, "EFA"},
	} {
		text := strings.ReplaceAll(string(b), ": mlx5_", ": "+c.prefix)
		top, _, err := Parse(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, bd := range top.Bindings() {
			if !strings.HasPrefix(bd.Device, c.prefix) {
				t.Fatalf("%s: device %q", c.prefix, bd.Device)
			}
			if !strings.Contains(bd.NotIB, c.says) || c.ib != (bd.NotIB == "") {
				t.Errorf("%s: %s note %q, want one naming %q", c.prefix, bd.GPU, bd.NotIB, c.says)
			}
		}
		if got := top.IBHCA().Value; (got != "") != c.ib || c.ib && !strings.HasPrefix(got, "="+c.prefix+"0,") {
			t.Errorf("%s: NCCL_IB_HCA %q, want one naming %s0 first: %v", c.prefix, got, c.prefix, c.ib)
		}
		var w bytes.Buffer
		if err := WriteReport(&w, top); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(w.String(), "NCCL_IB_HCA: none; "+c.prefix+"0"); got == c.ib {
			t.Errorf("%s: report says NCCL_IB_HCA applies to none: %v; want %v:\n%s", c.prefix, got, !c.ib, w.String())
		}
	}
}
