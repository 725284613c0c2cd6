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
	//    1 MiB: 0.0356 ms (80%: 0.0212 to 0.062 ms), Ring/LL; measured 0.0444 ms
	// 1024 MiB: 5.47 ms (80%: 4.18 to 9.19 ms), Ring/Simple; measured 5.21 ms
}

// The launch layout carries over from the tables: the Together logs ran one
// thread driving the node's 8 GPUs (nccl-tests -g 8), whose 8 serial
// launches bound a small call. A query can ask for another layout: one GPU
// per thread, in 8 threads or processes, or CUDA graphs, which drop the floor.
func ExampleMachine_Layout() {
	dir := "../../data/logs/paired/h100-sxm-1x8-together"
	var tables []predict.Table
	for _, name := range []string{"all_reduce_ring.log", "all_reduce_nvls.log"} {
		ts, _, err := predict.ReadFile(filepath.Join(dir, name), nil)
		if err != nil {
			log.Fatal(err)
		}
		tables = append(tables, ts...)
	}
	tables[0].Algo, tables[1].Algo = "ring", "nvls" // NCCL_ALGO, which the logs do not print
	hw, err := predict.DefaultHardware(tables[0].GPU)
	if err != nil {
		log.Fatal(err)
	}
	m, err := predict.Calibrate(hw, tables, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("processes  threads  GPUs per thread  graphs  1 KiB")
	for _, l := range []predict.Layout{{}, {GPUsPerThread: 1}, {ThreadsPerProcess: 8, GPUsPerThread: 1}, {Graphs: 1}} {
		q := predict.Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Layout: l}
		ps, err := m.Predict(q, []float64{1 << 10})
		if err != nil {
			log.Fatal(err)
		}
		run := m.Layout(q)
		fmt.Printf("%9d  %7d  %15d  %6d  %.3g us\n",
			run.Processes(q.Ranks), run.ThreadsPerProcess, run.GPUsPerThread, run.Graphs, ps[0].Time*1e6)
	}
	// Output:
	// processes  threads  GPUs per thread  graphs  1 KiB
	//         1        1                8       0  36.1 us
	//         8        1                1       0  17.3 us
	//         1        8                1       0  17.3 us
	//         1        1                8       1  17.3 us
}
