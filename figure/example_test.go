package figure_test

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

func ExampleTable_Markdown() {
	t := figure.Table{
		Header: []string{"algorithm", "steps", "T(1 MiB)"},
		Align:  []figure.Align{figure.Left, figure.Right, figure.Right},
	}
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.OneShot{}} {
		c := a.Cost(8, 1<<20)
		t.Rows = append(t.Rows, []string{a.Name(), fmt.Sprint(c.Steps), units.FormatDuration(c.Time(presets.H20Intra))})
	}
	fmt.Print(t.Markdown())
	// The article's model on H20Intra (α = 2 µs, BW = 350 GB/s):
	// ring 14·2 µs + 1.75·1 MiB / BW = 33.2 µs; one-shot 2 µs + 7·1 MiB / BW = 23 µs.

	// Output:
	// | algorithm | steps | T(1 MiB) |
	// | --------- | ----: | -------: |
	// | ring      |    14 |  33.2 µs |
	// | one-shot  |     1 |    23 µs |
}

func ExampleFigure_PNG() {
	sizes := figure.Sizes(1<<10, 1<<30, 1) // 1 KiB .. 1 GiB, one point per doubling
	f := figure.TimeFigure("AllReduce, P = 8", commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: 8, Link: presets.H20Intra}, sizes)
	b, err := f.PNG()
	if err != nil {
		fmt.Println(err)
		return
	}
	// The marked size is S* = α·BW/5.25 = 133 kB = 130 KiB (the article's "~130 KB").
	fmt.Println(len(f.Series), "curves;", f.Marks[0].Label, "; PNG:", string(b[1:4]))
	// Output: 4 curves; one-shot | two-shot 130 KiB ; PNG: PNG
}
