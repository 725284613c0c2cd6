package predict

import "testing"

func TestStrings(t *testing.T) {
	p := Prediction{Size: 1 << 20, Time: 79e-6, Low: 56.5e-6, High: 116e-6, Algorithm: "Tree", Protocol: "LL128"}
	if got, want := p.String(), "1 MiB: 79 µs, 80% in [56.5 µs, 116 µs], Tree/LL128"; got != want {
		t.Errorf("Prediction: %q, want %q", got, want)
	}
	par := Param{Name: "intra_bw", Unit: "B/s", Value: 350e9, Prior: 300e9, Used: true}
	if got, want := par.String(), "intra_bw = 350 GB/s (prior 300 GB/s, not identified)"; got != want {
		t.Errorf("Param: %q, want %q", got, want)
	}
	f := Finding{FromBytes: 64 << 10, ToBytes: 256 << 10, MeasuredOverModel: 3.4, Kind: KindFabric, Term: TermNetwork,
		NCCL: "Ring/LL", Advice: []string{"NCCL_ALGO=Tree"}}
	want := "64 KiB..256 KiB: " + KindFabric + ", 3.40x the model, " + TermNetwork + "; NCCL runs Ring/LL\n  try: NCCL_ALGO=Tree"
	if got := f.String(); got != want {
		t.Errorf("Finding: %q, want %q", got, want)
	}
}
