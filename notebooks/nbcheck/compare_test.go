package nbcheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestStaleCells(t *testing.T) {
	dir := t.TempDir()
	write := func(name, nb string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(nb), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const head = `{"nbformat":4,"metadata":{"x":1},"cells":[{"cell_type":"markdown","source":"# t"},`
	a := write("a.ipynb", head+`{"cell_type":"code","execution_count":1,"source":"x","outputs":[{"output_type":"display_data","data":{"image/png":"AAAA","text/plain":"p"}}]}]}`)
	// Same outputs, text split differently and data keys in another order: not stale.
	same := write("same.ipynb", `{"nbformat":4,"metadata":{"x":2},"cells":[{"cell_type":"markdown","source":["# ","t"]},`+
		`{"cell_type":"code","execution_count":7,"source":["x"],"outputs":[{"output_type":"display_data","data":{"text/plain":["p"],"image/png":["AA","AA"]}}]}]}`)
	other := write("other.ipynb", head+`{"cell_type":"code","execution_count":1,"source":"x","outputs":[{"output_type":"display_data","data":{"image/png":"BBBB","text/plain":"p"}}]}]}`)
	longer := write("longer.ipynb", head+`{"cell_type":"code","execution_count":1,"source":"x","outputs":[]},{"cell_type":"code","source":"y","outputs":[]}]}`)
	cases := []struct {
		b    string
		want []int
	}{{same, nil}, {other, []int{1}}, {longer, []int{1, 2}}}
	for _, c := range cases {
		got, err := StaleCells(a, c.b)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: stale cells %v, want %v", filepath.Base(c.b), got, c.want)
		}
	}
	bad := write("bad.ipynb", "{")
	if _, err := StaleCells(a, bad); err == nil || !strings.Contains(err.Error(), "bad.ipynb") {
		t.Errorf("bad notebook: err = %v", err)
	}
}
