package fit_test

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
)

// The article's 8 x H20 NCCL AllToAll times (64 KiB 9.5 us, 1 MiB 14.8 us,
// 16 MiB 72 us, 64 MiB 216 us) fitted as T = alpha + S/BW.
func ExampleAlphaBeta() {
	samples := []fit.Sample{
		{Size: 64 << 10, Time: 9.5e-6},
		{Size: 1 << 20, Time: 14.8e-6},
		{Size: 16 << 20, Time: 72e-6},
		{Size: 64 << 20, Time: 216e-6},
	}
	r, err := fit.AlphaBeta(samples, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := r.Regimes[0]
	fmt.Printf("alpha %.1f us, BW %.0f GB/s (busBW %.0f GB/s)\n",
		g.Alpha*1e6, g.BW/1e9, commmodel.AllToAll.BusFactor(8)*g.BW/1e9)
	fmt.Printf("median error %.0f%%, worst %.0f%%\n", 100*r.MedianRelErr, 100*r.MaxRelErr)
	// Output:
	// alpha 9.9 us, BW 300 GB/s (busBW 262 GB/s)
	// median error 8%, worst 9%
}

// A curve with two protocol regimes: below 64 KiB alpha 5 us and 20 GB/s,
// above it alpha 20 us and 300 GB/s (times from T = alpha + S/BW).
func ExamplePiecewise() {
	var samples []fit.Sample
	for s := 1024.0; s <= 1<<30; s *= 2 {
		alpha, bw := 5e-6, 20e9
		if s > 64<<10 {
			alpha, bw = 20e-6, 300e9
		}
		samples = append(samples, fit.Sample{Size: s, Time: alpha + s/bw})
	}
	r, err := fit.Piecewise(samples, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range r.Regimes {
		fmt.Printf("%8.0f..%10.0f B: alpha %4.1f us, BW %3.0f GB/s\n", g.MinSize, g.MaxSize, g.Alpha*1e6, g.BW/1e9)
	}
	fmt.Printf("median error %.1f%%, leave-one-out %.1f%%\n", 100*r.MedianRelErr, 100*r.LOOMedianRelErr)
	// Output:
	//     1024..     65536 B: alpha  5.0 us, BW  20 GB/s
	//   131072..1073741824 B: alpha 20.0 us, BW 300 GB/s
	// median error 0.0%, leave-one-out 0.0%
}
