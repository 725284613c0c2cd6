package nccltests_test

import (
	"fmt"
	"strings"

	"github.com/inframethod/commlab/data/nccltests"
)

func ExampleReader() {
	log := `# nThread 1 nGpus 1 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#  Rank  0 Group  0 Pid  1001 on node-a device  0 [0000:18:00] NVIDIA H20
#  Rank  1 Group  0 Pid  1002 on node-a device  1 [0000:2a:00] NVIDIA H20
#  Rank  2 Group  0 Pid  2001 on node-b device  0 [0000:18:00] NVIDIA H20
#  Rank  3 Group  0 Pid  2002 on node-b device  1 [0000:2a:00] NVIDIA H20
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
     1048576        262144     float     sum      -1    52.94   19.81   29.71      0    53.47   19.61   29.42      0
     2097152        524288     float     sum      -1    72.12   29.08   43.62      0    80.45   26.07   39.10      0
`
	r := nccltests.NewReader(strings.NewReader(log))
	r.Name = "run.log"
	t, err := r.Read()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v (from %v) over %d ranks on %d nodes\n", t.Collective, t.CollectiveFrom, t.Ranks, t.Nodes)
	for _, row := range t.Rows {
		fmt.Printf("%d B in %.2f us\n", row.Size, row.OutOfPlace.Time*1e6)
	}
	// Output:
	// allreduce (from table) over 4 ranks on 2 nodes
	// 1048576 B in 52.94 us
	// 2097152 B in 72.12 us
}
