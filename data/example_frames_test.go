package data_test

import (
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data"
)

// A frame of measurements goes into the fit as samples, and the fitted model
// comes back as columns joined on size.
func ExampleWithModel() {
	df := data.ArticleFrame().Filter(dataframe.F{Colname: "nnodes", Comparator: series.Eq, Comparando: 1})
	samples, err := data.Samples(df)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := fit.Through(commmodel.Direct{}, 8, samples, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	joined, err := data.WithModel(df, data.Curve{Name: "fitted", Time: r.Predict})
	if err != nil {
		fmt.Println(err)
		return
	}
	sum, err := data.ErrorSummary(joined, []string{"nranks"}, "fitted_rel_err")
	if err != nil {
		fmt.Println(err)
		return
	}
	size, meas, model := joined.Col("size_bytes").Float(), joined.Col("time_us").Float(), joined.Col("fitted_us").Float()
	for i := range size {
		fmt.Printf("%9.0f B  measured %6.1f us  fitted %6.1f us\n", size[i], meas[i], model[i])
	}
	fmt.Printf("median |error| %.1f%%\n", 100*sum.Col("fitted_rel_err_abs_MEDIAN").Elem(0).Float())
	// The fit through direct AllToAll is α 9.91 µs, BW 262 GB/s: at 64 MiB
	// 9.91 µs + 7/8·67108864 B / 262 GB/s = 233.9 µs.

	// Output:
	//     65536 B  measured    9.5 us  fitted   10.1 us
	//   1048576 B  measured   14.8 us  fitted   13.4 us
	//  16777216 B  measured   72.0 us  fitted   65.9 us
	//  67108864 B  measured  216.0 us  fitted  233.9 us
	// median |error| 8.4%
}
