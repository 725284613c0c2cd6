package nbcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// StaleCells compares the outputs of two copies of one notebook, cell by cell,
// and returns the indexes of the cells whose outputs differ (every index when
// the cell counts differ). The runner uses it to tell when a committed
// notebook no longer shows what executing it gives: outputs here are
// deterministic, so any difference means the committed copy is out of date.
func StaleCells(committed, executed string) ([]int, error) {
	a, err := cellOutputs(committed)
	if err != nil {
		return nil, err
	}
	b, err := cellOutputs(executed)
	if err != nil {
		return nil, err
	}
	var stale []int
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			stale = append(stale, i)
		}
	}
	return stale, nil
}

// cellOutputs returns one canonical string per cell: its source and outputs.
func cellOutputs(path string) ([]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb notebook
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&nb); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrFormat, err)
	}
	out := make([]string, len(nb.Cells))
	for i, c := range nb.Cells {
		var b strings.Builder
		b.WriteString(c.CellType + "\x00" + string(c.Source))
		for _, o := range c.Outputs {
			b.WriteString("\x00" + o.OutputType + "\x00" + o.Name + "\x00" + string(o.Text) + "\x00" + o.EName + "\x00" + o.EValue)
			mimes := make([]string, 0, len(o.Data))
			for m := range o.Data {
				mimes = append(mimes, m)
			}
			slices.Sort(mimes)
			for _, m := range mimes {
				b.WriteString("\x00" + m + "\x00" + string(o.Data[m]))
			}
		}
		out[i] = b.String()
	}
	return out, nil
}
