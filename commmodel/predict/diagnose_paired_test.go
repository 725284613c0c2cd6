package predict_test

import (
	"testing"

	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
	"github.com/inframethod/commlab/units"
)

// beyondNoise returns the findings of a diagnosis that say a run departs
// from the model beyond its noise: slower or faster than the 80% interval
// over more than half of the table's sizes together, or a table that
// follows another algorithm or a fabric slower than the smaller runs, at
// any size. Switches and bus bandwidth above the NICs describe what NCCL
// ran, not a departure, and a departure at a minority of sizes is what an
// 80% interval leaves outside.
func beyondNoise(t predict.Table, fs []predict.Finding) []predict.Finding {
	var out, departures []predict.Finding
	outside := 0
	for _, f := range fs {
		switch f.Kind {
		case predict.KindSlower, predict.KindFaster:
			departures = append(departures, f)
			for _, p := range t.Points {
				if f.FromBytes <= p.Size && p.Size <= f.ToBytes {
					outside++
				}
			}
		case predict.KindOtherChoice, predict.KindFabric:
			out = append(out, f)
		}
	}
	if 2*outside > len(t.Points) {
		out = append(out, departures...)
	}
	return out
}

// flagged lists the paired tables whose diagnosis goes beyond noise, each
// with whether the finding is right, from docs/scores.md ("Where a table
// misses a target, and why"). Only the first is an anomaly of the run; the
// others are the model's documented misses on a held-out table, which a
// diagnosis cannot tell from the run's.
var flagged = map[string]string{
	"gb200-nvl72-coreweave/allreduce_20racks.log#0":                    "right: the 20-rack rows fit 4.83 ms + S/215 GB/s, a ring's fixed part on 1440 ranks, not NVLSTree's; the finding names NVLSTree -> Ring",
	"a100-sxm4-abci-ib4xhdr/allreduce_1x8.log#0":                       "the model's miss: NCCL 2.8.4 modelled with 2.18's tuner, LL fitted at 0.13 of Simple; the finding says the model is slow and to calibrate on the table",
	"v100-sxm2-abci-ib2xedr/broadcast_1x4.log#0":                       "the model's miss: chain_efficiency is fitted on the multi-node Broadcasts, whose network share swings over 2x; its NVLink advice is a false alarm",
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log#1":                  "the model's miss: the NVLS efficiency the 16- and 32-host tables fix (0.76) makes 8 GPUs 13% slow; the finding says the model is slow",
	"gb300-nvl72/allreduce_alltoall_1to32hosts.log#7":                  "the model's miss: the two-rack AllReduce fixes nic_bw for 16 NICs, while AllToAll uses every GPU's NIC; the model is 21% fast, and the network advice is a false alarm",
	"h100-sxm-10node-cluster01/nccl_N2_G1_cnode3-002_cnode3-003.log#0": "the run's: this AllToAll of one GPU a host moves 38.9 GB/s to its one peer at 16 GiB where the same two hosts' SendRecv moves 43.8 and the 10-node runs' AllReduce 48.8 a NIC; the finding says the network is slower than the model",
	"h100-sxm-10node-cluster01/nccl_N2_G4_cnode3-002_cnode3-003.log#1": "the run's: this SendRecv moves 40.2 GB/s where the same two hosts' SendRecv of 1 and 8 GPUs a host move 43.8 and 45.9; the finding says the network is slower than the model",
	"h100-sxm-10node-cluster01/nccl_N10_G8.log#4":                      "the model's miss: 80 ranks leave each network peer one channel (NCCL 2.29's rule, nccl.P2PNetChannels), which carries 15.2 GB/s here where the 10-node SendRecv of 10 to 40 ranks fit channel_bw at about 12.5 over their two; the finding says the model is slow",
}

// TestDiagnoseHealthy diagnoses every table of the paired machines
// (heldout.PairedMachines, 85 tables of 8 machines) against the model
// calibrated on the machine's other tables. The tables are public runs of
// healthy machines, so a finding beyond noise (beyondNoise) is a false
// alarm unless the run is documented as anomalous: every table outside
// flagged passes, and every table in it is flagged (77 of 85 pass).
func TestDiagnoseHealthy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("calibrates 85 times")
	}
	ms, err := heldout.PairedMachines()
	if err != nil {
		t.Fatal(err)
	}
	pass, total := 0, 0
	for _, pm := range ms {
		for i, tab := range pm.Tables {
			others := append(append([]predict.Table(nil), pm.Tables[:i]...), pm.Tables[i+1:]...)
			m, err := predict.Calibrate(pm.Hardware, others, nil)
			if err != nil {
				t.Fatalf("%s: %v", tab.Name, err)
			}
			fs, inside, err := m.Diagnose(tab)
			if err != nil {
				t.Fatalf("%s: %v", tab.Name, err)
			}
			total++
			bad := beyondNoise(tab, fs)
			why, listed := flagged[tab.Name]
			switch {
			case len(bad) == 0 && listed:
				t.Errorf("%s now passes: remove it from flagged", tab.Name)
			case len(bad) == 0:
				pass++
			case !listed:
				t.Errorf("%s (%d of %d points inside) gets findings beyond noise:", tab.Name, inside, len(tab.Points))
				for _, f := range bad {
					t.Errorf("  %s..%s %s %s %s %.2f %q", units.FormatSize(f.FromBytes), units.FormatSize(f.ToBytes), f.Kind, f.Term, f.NCCL, f.MeasuredOverModel, f.Advice)
				}
			default:
				t.Logf("%s: %s", tab.Name, why)
			}
		}
	}
	if want := total - len(flagged); pass != want {
		t.Errorf("%d of %d tables pass, want %d", pass, total, want)
	}
}
