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
