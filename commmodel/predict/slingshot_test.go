package predict

import (
	"math"
	"testing"

	"github.com/inframethod/commlab/presets"
)

// TestSlingshotOneNIC: Alps' 2 x 1 GH200 AllReduce (cscs-docs' Sarus Suite
// page) runs one rank a node, so every byte crosses one Slingshot 11 NIC:
// its 128 MiB row takes 5871.07 us, 22.86 GB/s, 91% of the NIC's 25 GB/s
// (presets.SlingshotNICBW). Calibrated with the catalog's HPE Cray EX254n,
// the table identifies nic_bw within 10% of that rate.
func TestSlingshotOneNIC(t *testing.T) {
	tab := firstTable(t, "../../data/nccltests/testdata/real/gh200_2x1_allreduce_slingshot_alps_sarus.log")
	h, err := Describe(tab.GPU, "system=hpe-ex254n-gh200")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Calibrate(h.ForHosts(tab.PerNode), []Table{tab}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := m.Params[parNICBW]
	if !p.Identified || math.Abs(p.Value/presets.SlingshotNICBW-1) > 0.10 {
		t.Errorf("nic_bw %.4g B/s (identified %v); want within 10%% of %.4g B/s, identified", p.Value, p.Identified, presets.SlingshotNICBW)
	}
}
