package presets_test

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
)

// The article's ring AllReduce of 1 MB on one 8 x H20 node: 14 steps of
// 2 us and 1.75 MB per GPU at 350 GB/s.
func ExampleLink() {
	l, _ := presets.Link("h20-intra")
	t := commmodel.Ring{}.Cost(8, 1e6).Time(l)
	fmt.Printf("%.0f us\n", t*1e6)
	// Output: 33 us
}
