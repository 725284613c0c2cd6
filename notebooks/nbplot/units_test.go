package nbplot

import (
	"math"
	"testing"
)

func TestUnitFormat(t *testing.T) {
	cases := []struct {
		u    Unit
		v    float64
		want string
	}{
		{Bytes, 65536, "64 KiB"},  // 2^16 B
		{Bytes, 1 << 20, "1 MiB"}, // 2^20 B
		{Bytes, 56e3, "54.7 KiB"}, // the article's ~56 KB decode AllReduce, 56000/1024
		{Bytes, 512, "512 B"},     // below 1 KiB
		{Bytes, 1.5 * (1 << 30), "1.5 GiB"},
		{Seconds, 2.8e-5, "28 µs"},     // article: ring P=8, 14 steps x 2 us
		{Seconds, 3.1e-6, "3.1 µs"},    // public H20 log: empty-call floor
		{Seconds, 4.409e-3, "4.41 ms"}, // article: AllToAll 2x8 at 128 MB, 4409 us
		{Seconds, 5e-10, "0.5 ns"},     // below the smallest prefix
		{Seconds, 2, "2 s"},
		{Seconds, 0, "0 s"},
		{BytesPerSecond, 350e9, "350 GB/s"}, // article's intra-node BW, GB/s = 1e9 B/s
		{BytesPerSecond, 20e9, "20 GB/s"},   // article's inter-node BW
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
	if FormatSize(1024) != "1 KiB" || FormatTime(1e-3) != "1 ms" || FormatBW(1e12) != "1 TB/s" {
		t.Error("Format helpers disagree with Unit.Format")
	}
}

func TestLogTicks(t *testing.T) {
	// 1 KiB .. 1 GiB is 20 doublings: labels every 2^5 keep it to 5 labels.
	ts := logTicks{Bytes}.Ticks(1024, 1<<30)
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
	// 28 us .. 5 ms spans under four decades: 2 and 5 are labelled too;
	// ticks stay inside the range.
	labels = labels[:0]
	for _, tk := range (logTicks{Seconds}).Ticks(2.8e-5, 5e-3) {
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
	for _, tk := range (logTicks{Seconds}).Ticks(9e-6, 8e-5) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want = []string{"10 µs", "20 µs", "30 µs", "50 µs", "70 µs"}; !equal(labels, want) {
		t.Errorf("narrow time labels %v, want %v", labels, want)
	}
	// Too narrow for any 1-2-3-5-7 tick: the ends are labelled.
	ts = logTicks{Seconds}.Ticks(2.2e-5, 2.8e-5)
	if ts[len(ts)-2].Label != "22 µs" || ts[len(ts)-1].Label != "28 µs" {
		t.Errorf("narrow range ticks %v", ts)
	}
	if ts := (logTicks{Seconds}).Ticks(0, 1); ts != nil {
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
