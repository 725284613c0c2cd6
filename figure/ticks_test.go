package figure

import (
	"gonum.org/v1/plot/vg"
	"math"
	"testing"
)

// Each unit labels through commmodel's formatter of its kind (whose tests
// hold the edge cases); Ratio adds an "x".
func TestUnitFormat(t *testing.T) {
	cases := []struct {
		u    Unit
		v    float64
		want string
	}{
		{Bytes, 65536, "64 KiB"},            // 2^16 B
		{Seconds, 2.8e-5, "28 µs"},          // article: ring P=8, 14 steps x 2 us
		{BytesPerSecond, 350e9, "350 GB/s"}, // article's intra-node BW
		{Ratio, 7.5, "7.5x"},                // article: alpha x7.5
		{Plain, 8, "8"},
		{Plain, 1e9, "1e+09"},
		{Plain, math.NaN(), "NaN"},
	}
	for _, c := range cases {
		if got := c.u.Format(c.v); got != c.want {
			t.Errorf("%v.Format(%g) = %q, want %q", c.u, c.v, got, c.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	// 1 KiB .. 1 GiB is 20 doublings: labels every 2^5 keep it to 5 labels.
	ts := logTicks{unit: Bytes}.Ticks(1024, 1<<30)
	var labels []string
	for _, tk := range ts {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"1 KiB", "32 KiB", "1 MiB", "32 MiB", "1 GiB"}
	if len(ts) != 21 || !equal(labels, want) {
		t.Errorf("got %d ticks labelled %v, want 21 labelled %v", len(ts), labels, want)
	}
	// On a 3.5 in column the budget is 8·3.5/7 = 4 labels: 1 KiB .. 16 GiB
	// (24 doublings) is labelled every 2^10, where 7 in labels every 2^5.
	if n := labelsFor(3.5*vg.Inch, DefaultWidth); n != 4 {
		t.Errorf("labelsFor(3.5 in) = %d, want 4", n)
	}
	var narrow []string
	for _, tk := range (logTicks{unit: Bytes, labels: 4}).Ticks(1024, 1<<34) {
		if tk.Label != "" {
			narrow = append(narrow, tk.Label)
		}
	}
	if want := []string{"1 KiB", "1 MiB", "1 GiB"}; !equal(narrow, want) {
		t.Errorf("3.5 in: labelled %v, want %v", narrow, want)
	}
	// 28 us .. 5 ms spans under four decades: 2 and 5 are labelled too;
	// ticks stay inside the range.
	labels = labels[:0]
	for _, tk := range (logTicks{unit: Seconds}).Ticks(2.8e-5, 5e-3) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want = []string{"50 µs", "100 µs", "200 µs", "500 µs", "1 ms", "2 ms", "5 ms"}
	if !equal(labels, want) {
		t.Errorf("time labels %v, want %v", labels, want)
	}
	// Within about a decade 3 and 7 are labelled too.
	labels = labels[:0]
	for _, tk := range (logTicks{unit: Seconds}).Ticks(9e-6, 8e-5) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want = []string{"10 µs", "20 µs", "30 µs", "50 µs", "70 µs"}; !equal(labels, want) {
		t.Errorf("narrow time labels %v, want %v", labels, want)
	}
	// Too narrow for any 1-2-3-5-7 tick: the ends are labelled.
	ts = logTicks{unit: Seconds}.Ticks(2.2e-5, 2.8e-5)
	if ts[len(ts)-2].Label != "22 µs" || ts[len(ts)-1].Label != "28 µs" {
		t.Errorf("narrow range ticks %v", ts)
	}
	if ts := (logTicks{unit: Seconds}).Ticks(0, 1); ts != nil {
		t.Errorf("ticks for a range from 0: %v", ts)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
