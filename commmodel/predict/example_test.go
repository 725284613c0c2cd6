package predict_test

import (
	"fmt"
	"log"
	"path/filepath"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/predict"
)

// Calibrate on two nccl-tests logs of one 8-GPU node, an AllGather and a
// ReduceScatter run with NCCL_ALGO=RING (which the logs do not print, so
// the pins say it), and predict the ring AllReduce that neither ran, beside
// the AllReduce the same node measured.
func ExampleCalibrate() {
	dir := "../../data/logs/paired/h100-sxm-1x8-together"
	ring := func(int) predict.Pins { return predict.Pins{Algo: "ring"} }
	read := func(name string) []predict.Table {
		ts, _, err := predict.ReadFile(filepath.Join(dir, name), ring) // the second result: rows left out
		if err != nil {
			log.Fatal(err)
		}
		return ts
	}
	tables := append(read("all_gather_ring.log"), read("reduce_scatter_ring.log")...)
	hw, err := predict.DefaultHardware(tables[0].GPU) // "NVIDIA H100 80GB HBM3"
	if err != nil {
		log.Fatal(err)
	}
	m, err := predict.Calibrate(hw, tables, nil)
	if err != nil {
		log.Fatal(err)
	}
	q := predict.Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Algo: "ring"}
	measured := map[float64]float64{}
	for _, p := range read("all_reduce_ring.log")[0].Points {
		measured[p.Size] = p.Time
	}
	ps, err := m.Predict(q, []float64{1 << 20, 1 << 30})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range ps {
		fmt.Printf("%4.0f MiB: %.3g ms (80%%: %.3g to %.3g ms), %s/%s; measured %.3g ms\n",
			p.Size/(1<<20), p.Time*1e3, p.Low*1e3, p.High*1e3, p.Algorithm, p.Protocol, measured[p.Size]*1e3)
	}
	// Output:
	//    1 MiB: 0.0356 ms (80%: 0.0212 to 0.0613 ms), Ring/LL; measured 0.0444 ms
	// 1024 MiB: 5.46 ms (80%: 3.25 to 9.4 ms), Ring/Simple; measured 5.21 ms
}
