package predict

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestParamsDocumented: docs/predict.md's table of the parameters lists
// each one the calibration fits, with its unit and Doc as Machine.Params
// gives them, in their order.
func TestParamsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/predict.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	m, err := Calibrate(h100(t), []Table{firstTable(t, "../../data/logs/paired/h100-sxm-10node-cluster01/nccl_N2_G8_cnode3-002_cnode3-003.log")}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for _, p := range m.Params {
		row := fmt.Sprintf("| `%s` | %s | %s |\n", p.Name, p.Unit, p.Doc)
		i := strings.Index(doc[at:], row)
		if i < 0 {
			t.Errorf("docs/predict.md lacks, after the previous parameter's row, %q", row)
			continue
		}
		at += i + len(row)
	}
}

// TestFormatParam: nic_bw, one NIC's rate in bytes a second, prints its
// line rate in bits beside it, as the fact nic_bw gives it (50e9 B/s is
// 400 Gb/s, 8 bits a byte); every other parameter prints as FormatValue.
func TestFormatParam(t *testing.T) {
	for _, c := range []struct {
		name, unit string
		v          float64
		want       string
	}{
		{"nic_bw", "B/s", 50e9, "50 GB/s (400 Gb/s)"},
		{"nic_bw", "B/s", 47.5e9, "47.5 GB/s (380 Gb/s)"},
		{"intra_bw", "B/s", 360e9, "360 GB/s"},
		{"launch", "s", 3.1e-6, "3.1 µs"},
	} {
		if got := FormatParam(c.name, c.unit, c.v); got != c.want {
			t.Errorf("FormatParam(%s, %g) = %q, want %q", c.name, c.v, got, c.want)
		}
	}
}
