package predict_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"path/filepath"
	"sync"

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

// The path commlab's commands take from a user's logs to a prediction:
// the GPU's name gives the hardware (DefaultHardware), the logs' own lines
// settle what they show of it (FromTables: here aws-ofi-nccl's platform
// line names a p4d.24xlarge, whose NIC rate, network latency and CPU the
// catalog holds, and NCCL's debug lines count 4 NICs a node), and the
// calibration fits the rest. Each fact says where it came from, and what
// the tables fit for it where they identify it. Calibrating on
// DefaultHardware alone skips that evidence: the NICs stay one a GPU at
// the A100 generation's 200 Gb/s, and the 1 GiB AllReduce comes out 22%
// faster than what commlab predict prints for the same log (62.1 ms).
func ExampleHardware_FromTables() {
	tables, _, err := predict.ReadFile("../../data/nccltests/testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log", nil)
	if err != nil {
		log.Fatal(err)
	}
	if len(tables) == 0 {
		log.Fatal("no table to calibrate on") // every test left out: the problems say why
	}
	q := predict.Query{Collective: commmodel.AllReduce, Ranks: 32, PerNode: 8} // 4 nodes
	gpu, err := predict.DefaultHardware(tables[0].GPU)
	if err != nil {
		log.Fatal(err)
	}
	hw, notes := gpu.FromTables(tables, q.PerNode) // the GPUs a node of the runs to predict
	for _, n := range notes {
		fmt.Println(n)
	}
	m, err := predict.Calibrate(hw, tables, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range m.Facts() {
		switch f.Name {
		case "nics_per_node", "nic_bw", "net_latency", "cpu":
			fmt.Printf("%-13s %-10s from %-10s fitted %q\n", f.Name, f.Value, f.Source, f.Fitted)
		}
	}
	ps, err := m.Predict(q, []float64{1 << 30})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("with the evidence:    ", ps[0])
	bare, err := predict.Calibrate(gpu, tables, nil)
	if err != nil {
		log.Fatal(err)
	}
	if ps, err = bare.Predict(q, []float64{1 << 30}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("DefaultHardware alone:", ps[0])
	// Output:
	// a100_2x8_allreduce_efa_p4d_ncclinfo.log#0: aws-ofi-nccl names the platform p4d.24xlarge (line 30): nic_bw 100 Gb/s, cpu intel, net_latency 16x NCCL's, gpus_per_node 8 and fabric nvswitch are the catalog's for it (docs/predict.md cites AWS)
	// nics_per_node 4          from nccl-debug fitted ""
	// nic_bw        100 Gb/s   from catalog    fitted ""
	// cpu           intel      from catalog    fitted ""
	// net_latency   16x NCCL's from catalog    fitted "19x NCCL's"
	// with the evidence:     1 GiB: 62.1 ms, 80% in [53.1 ms, 125 ms], Ring/Simple
	// DefaultHardware alone: 1 GiB: 48.6 ms, 80% in [38.8 ms, 71.3 ms], Ring/Simple
}

// Without a log of the machine, Untabled predicts from the GPU's name:
// NCCL's own tuning model where it times the run, else the model at its
// priors, and why says which. Grouped sends (AllToAll), which NCCL's
// tuner does not model, take the priors.
func ExampleUntabled() {
	hw, err := predict.DefaultHardware("NVIDIA H100 80GB HBM3")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(hw.String())
	for _, c := range []commmodel.Collective{commmodel.AllReduce, commmodel.AllToAll} {
		q := predict.Query{Collective: c, Ranks: 16, PerNode: 8}
		ps, why, err := predict.Untabled(hw, q, []float64{1 << 20})
		if err != nil {
			log.Fatal(err)
		}
		if why == "" {
			why = "NCCL's tuning model"
		} else {
			why = "the model at its priors: " + why
		}
		fmt.Printf("%v: %v\n  %s\n", c, ps[0], why)
	}
	// Output:
	// H100 SXM, NVSwitch 18 NVLinks, NVLS, one NIC per GPU of 400 Gb/s
	// allreduce: 1 MiB: 62.5 µs, 80% in [47.8 µs, 222 µs], Tree/LL128
	//   NCCL's tuning model
	// alltoall: 1 MiB: 60.3 µs, 80% in [32.7 µs, 237 µs], P2P/Simple
	//   the model at its priors: NCCL's tuning model has no alltoall (it runs as grouped sends)
}

// Predict refuses a query or a size it cannot time with an error, before
// any size is timed: a shape or a layout that cannot run wraps ErrShape or
// ErrLayout, for errors.Is; a size that is not a number of bytes from 1 to
// below 2^62, a collective that is not one or pins NCCL would refuse wrap
// ErrQuery. A prediction is never NaN. Curve, which has no error to
// return, gives NaN where Predict fails.
func ExampleMachine_Predict_errors() {
	m := predict.Uncalibrated(mustHardware("NVIDIA H100 80GB HBM3"))
	for _, q := range []predict.Query{
		{Collective: commmodel.AllReduce, Ranks: 12, PerNode: 8},
		{Collective: commmodel.AllReduce, Ranks: 0, PerNode: 8},
		{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Layout: predict.Layout{GPUsPerThread: 3}},
	} {
		_, err := m.Predict(q, []float64{1 << 20})
		fmt.Println(errors.Is(err, predict.ErrShape), errors.Is(err, predict.ErrLayout))
	}
	q := predict.Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	_, err := m.Predict(q, []float64{math.NaN()})
	fmt.Println(errors.Is(err, predict.ErrQuery), err)
	q.Algo = "bogus"
	_, err = m.Predict(q, []float64{1 << 20})
	fmt.Println(errors.Is(err, predict.ErrQuery), err)
	fmt.Println(m.Curve(q)(-1))
	// Output:
	// true false
	// true false
	// false true
	// true predict: size NaN B: want a size from 1 B to below 2^62 B (4194304 TiB), such as 1048576
	// true nccl: NCCL_ALGO="bogus": unknown name "bogus" (want Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT)
	// NaN
}

func mustHardware(gpu string) predict.Hardware {
	hw, err := predict.DefaultHardware(gpu)
	if err != nil {
		log.Fatal(err)
	}
	return hw
}

// A log that does not say how its ranks sat on hosts (this one, posted
// without its Rank lines, ran 16 ranks on two hosts of 8 H200s) gives no
// table, and no error: ReadFile's problems say why each test was left out,
// each a *LeftOutError. Pins give what the log does not print: the nodes,
// and the GPU, which the Rank lines would have named (UnnamedGPU without).
func ExampleReadFile_pins() {
	path := "../../data/nccltests/testdata/real/h200_2x8_allreduce_4nic_baremetal_nccltests380.log"
	tables, problems, err := predict.ReadFile(path, nil)
	if err != nil {
		log.Fatal(err)
	}
	var left *predict.LeftOutError
	fmt.Println(len(tables), "tables;", len(problems), "problem; left out:", errors.As(problems[0], &left))
	tables, _, err = predict.ReadFile(path, func(test int) predict.Pins { return predict.Pins{Nodes: 2, GPU: "NVIDIA H200"} })
	if err != nil {
		log.Fatal(err)
	}
	t := tables[0]
	fmt.Printf("%s: %v on %d x %d %s, %d sizes\n", filepath.Base(t.Name), t.Collective, t.Nodes, t.PerNode, t.GPU, len(t.Points))
	// Output:
	// 0 tables; 1 problem; left out: true
	// h200_2x8_allreduce_4nic_baremetal_nccltests380.log#0: allreduce on 2 x 8 NVIDIA H200, 3 sizes
}

// One calibrated Machine serves a sweep from many goroutines at once: its
// methods only read it (the package documentation's Concurrency). Each
// goroutine here predicts AllReduce on one node count, 1 to 64 nodes of 8
// GPUs; the calibration tables ran 1, 2 and 10 nodes, and beyond them the
// interval widens, most on its slow side.
func ExampleMachine_Predict_concurrent() {
	dir := "../../data/logs/paired/h100-sxm-10node-cluster01"
	var tables []predict.Table
	for _, name := range []string{"nccl_N1_G8_cnode3-002.log", "nccl_N2_G8_cnode3-002_cnode3-003.log", "nccl_N10_G8.log"} {
		ts, _, err := predict.ReadFile(filepath.Join(dir, name), nil)
		if err != nil {
			log.Fatal(err)
		}
		tables = append(tables, ts...)
	}
	hw, _ := mustHardware(tables[0].GPU).FromTables(tables, 8)
	m, err := predict.Calibrate(hw, tables, nil)
	if err != nil {
		log.Fatal(err)
	}
	nodes := []int{1, 2, 4, 8, 16, 32, 64}
	out := make([]predict.Prediction, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ps, err := m.Predict(predict.Query{Collective: commmodel.AllReduce, Ranks: 8 * n, PerNode: 8}, []float64{1 << 30})
			if err != nil {
				log.Fatal(err)
			}
			out[i] = ps[0]
		}()
	}
	wg.Wait()
	for i, p := range out {
		fmt.Printf("%d nodes: %v\n", nodes[i], p)
	}
	// Output:
	// 1 nodes: 1 GiB: 4.03 ms, 80% in [3.61 ms, 4.61 ms], NVLS/Simple
	// 2 nodes: 1 GiB: 4.19 ms, 80% in [3.75 ms, 4.79 ms], NVLSTree/Simple
	// 4 nodes: 1 GiB: 6.84 ms, 80% in [6.12 ms, 7.82 ms], NVLSTree/Simple
	// 8 nodes: 1 GiB: 6.99 ms, 80% in [6.25 ms, 7.99 ms], NVLSTree/Simple
	// 16 nodes: 1 GiB: 7.13 ms, 80% in [6.2 ms, 9.2 ms], NVLSTree/Simple
	// 32 nodes: 1 GiB: 7.28 ms, 80% in [6.11 ms, 10.5 ms], NVLSTree/Simple
	// 64 nodes: 1 GiB: 7.42 ms, 80% in [6.05 ms, 11.6 ms], NVLSTree/Simple
}
