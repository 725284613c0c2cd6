package article

import (
	"fmt"
	"math"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
)

// fabricClaims returns the article's statements about fabrics, each computed
// by the model:
//
//   - on 910B's HCCS full mesh a ring drives 1 of 7 links, so its
//     large-message time is 7x that of an algorithm that drives all links;
//   - on a switched fabric (NVSwitch) algorithms that move the same bytes
//     converge, the egress being the bottleneck;
//   - the article's cross-node bandwidth (intra ÷17.5) beside what
//     the NIC arithmetic gives (a 400G NIC shared by 8/4 GPUs);
//   - the article's intra-node bandwidth beside NCCL's NVLink model.
func fabricClaims(in inputs) []Claim {
	return []Claim{
		claimFullMeshRing(),
		claimSwitchedConverge(),
		claimInterWithinNIC(in),
		claimIntraWithinNVLink(in),
	}
}

func claimFullMeshRing() Claim {
	f := presets.Ascend910B
	ring := commmodel.Ring{}.Cost(f.P, 1)
	used := f.BW(ring.Fanout) / f.Egress() * float64(f.Links)
	r := f.LargeMessageRatio(commmodel.Ring{}, commmodel.TwoShot{})
	return Claim{
		ID:        "fabric-910b-ring-7x",
		Statement: "910B's HCCS is a point-to-point full mesh, not a switch: a ring uses 1 of the 7 links, so large messages are 7x slower",
		Expected:  "ring drives 1 of 7 links; large-message time 7x an all-links algorithm",
		Got:       fmt.Sprintf("ring drives %.0f of %d links; ring / two-shot (fanout %d) at large S = %.2fx", used, f.Links, commmodel.TwoShot{}.Cost(f.P, 1).Fanout, r),
		Pass:      math.Abs(used-1) < 1e-12 && math.Abs(r-7) < 1e-9,
	}
}

func claimSwitchedConverge() Claim {
	f := presets.H20NVSwitch
	r := f.LargeMessageRatio(commmodel.Ring{}, commmodel.TwoShot{})
	return Claim{
		ID:        "fabric-switched-egress",
		Statement: "on a switched fabric the bottleneck is each GPU's egress, not the links, so algorithms with the same bytes converge at large sizes",
		Expected:  "ring / two-shot at large S = 1 on NVSwitch",
		Got:       fmt.Sprintf("ring / two-shot at large S = %.3f (egress %.1f GB/s either way)", r, f.Egress()/1e9),
		Pass:      math.Abs(r-1) < 1e-9,
	}
}

func claimInterWithinNIC(in inputs) Claim {
	const gpus, nics = 8, 4 // the article's server: 8 x H20, 4 NICs
	share := commmodel.SharedNICBW(presets.H20NICLineRate, gpus/nics)
	nicRatio := in.node.Intra.BW / share
	article := in.node.Intra.BW / in.node.Inter.BW
	return Claim{
		ID:        "fabric-inter-vs-nic",
		Statement: "across nodes the egress is ÷17.5 of the intra-node one; set beside the NIC arithmetic of the 8-GPU, 4 x 400G-NIC server",
		Expected:  "article's inter BW (÷17.5) within the per-GPU NIC share",
		Got: fmt.Sprintf("NIC share %.0f GB/s per GPU (÷%.1f); article %.0f GB/s (÷%.1f) = %.0f%% of the share",
			share/1e9, nicRatio, in.node.Inter.BW/1e9, article, 100*in.node.Inter.BW/share),
		Pass: in.node.Inter.BW <= share,
	}
}

func claimIntraWithinNVLink(in inputs) Claim {
	egress := presets.H20NVSwitch.Egress()
	return Claim{
		ID:        "fabric-intra-vs-nvlink",
		Statement: "the intra-node bandwidth implied by the article (~350 GB/s) fits H20's 18 NVLinks",
		Expected:  "350 GB/s within 18 x 20.6 GB/s (NCCL's Hopper NVLink)",
		Got:       fmt.Sprintf("%.0f GB/s = %.0f%% of %.1f GB/s", in.node.Intra.BW/1e9, 100*in.node.Intra.BW/egress, egress/1e9),
		Pass:      in.node.Intra.BW <= egress,
	}
}
