package commmodel

import "testing"

func TestParseUnits(t *testing.T) {
	// DESIGN.md: KB/MB/GB are powers of 1000, KiB/MiB/GiB powers of 1024.
	for in, want := range map[string]int64{
		"4096": 4096, "0": 0, "128B": 128, "64KB": 64000, "64 KiB": 65536, "1.5MiB": 1572864,
		"1GB": 1e9, "2GiB": 2 << 30, "56kb": 56000, "1e3": 1000,
	} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "KB", "-1", "1.5B", "12XB", "NaN", "1e30", "--1"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) succeeded", bad)
		}
	}
	for in, want := range map[string]float64{"2us": 2e-6, "15 µs": 15e-6, "15μs": 15e-6, "0.5ms": 5e-4, "1s": 1, "300ns": 3e-7, "1e-6s": 1e-6} {
		got, err := ParseDuration(in)
		if err != nil || !closeTo(got, want, 1e-12) {
			t.Errorf("ParseDuration(%q) = %g, %v; want %g", in, got, err, want)
		}
	}
	for _, bad := range []string{"2", "2 hours", "-1us", "us", "Inf s"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", bad)
		}
	}
	// DESIGN.md: GB/s = 1e9 B/s; Gb/s is a line rate in bits.
	for in, want := range map[string]float64{"350GB/s": 350e9, "20 GB/s": 20e9, "1GiB/s": 1 << 30, "400Gb/s": 50e9, "100 Mb/s": 12.5e6, "5e9B/s": 5e9} {
		got, err := ParseBandwidth(in)
		if err != nil || !closeTo(got, want, 1e-12) {
			t.Errorf("ParseBandwidth(%q) = %g, %v; want %g", in, got, err, want)
		}
	}
	for _, bad := range []string{"350", "0GB/s", "-1GB/s", "3 parsecs", "GB/s", "1e308TB/s"} {
		if _, err := ParseBandwidth(bad); err == nil {
			t.Errorf("ParseBandwidth(%q) succeeded", bad)
		}
	}
	if got, err := ParseSizes("1KiB,2MB, 3"); err != nil || len(got) != 3 || got[0] != 1024 || got[1] != 2e6 || got[2] != 3 {
		t.Errorf("ParseSizes = %v, %v", got, err)
	}
}
