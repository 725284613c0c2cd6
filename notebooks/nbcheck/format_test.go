package nbcheck

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCheckFormatInline(t *testing.T) {
	// cells returns a cells array whose cells have the given ids; "-" leaves
	// the id out, "null" writes a JSON null.
	cells := func(ids ...string) string {
		var cs []string
		for _, id := range ids {
			field := `"id":"` + id + `",`
			switch id {
			case "-":
				field = ""
			case "null":
				field = `"id":null,`
			}
			cs = append(cs, `{`+field+`"cell_type":"markdown","metadata":{},"source":"x"}`)
		}
		return `[` + strings.Join(cs, ",") + `]`
	}
	long := strings.Repeat("a", 64)
	cases := []struct {
		name string
		nb   string
		want []Problem
	}{
		{"4.5 with ids", `{"nbformat":4,"nbformat_minor":5,"cells":` + cells("f6330927", "a-b_C9", long) + `}`, nil},
		{"a later minor", `{"nbformat":4,"nbformat_minor":6,"cells":` + cells("x") + `}`, nil},
		{"no cells", `{"nbformat":4,"nbformat_minor":5,"cells":[]}`, nil},
		{"4.4", `{"nbformat":4,"nbformat_minor":4,"cells":` + cells("-", "-") + `}`,
			[]Problem{{-1, OldFormat, "nbformat 4.4, want 4.5 or later (cells with ids)"}}},
		// nbformat_minor is required; without it the minor is taken as 0.
		{"no minor", `{"nbformat":4,"cells":` + cells("a") + `}`,
			[]Problem{{-1, OldFormat, "nbformat 4.0, want 4.5 or later (cells with ids)"}}},
		{"missing ids", `{"nbformat":4,"nbformat_minor":5,"cells":` + cells("a", "-", "null") + `}`,
			[]Problem{{1, CellID, "no id"}, {2, CellID, "no id"}}},
		{"duplicate ids", `{"nbformat":4,"nbformat_minor":5,"cells":` + cells("a", "b", "a", "a") + `}`,
			[]Problem{{2, CellID, `id "a" is also cell 0's`}, {3, CellID, `id "a" is also cell 0's`}}},
		{"invalid ids", `{"nbformat":4,"nbformat_minor":5,"cells":` + cells("", "a b", "é", long+"a", "ok") + `}`,
			[]Problem{
				{0, CellID, `id "": want 1 to 64 letters, digits, '-' or '_'`},
				{1, CellID, `id "a b": want 1 to 64 letters, digits, '-' or '_'`},
				{2, CellID, `id "é": want 1 to 64 letters, digits, '-' or '_'`},
				{3, CellID, `id "` + long + `a": want 1 to 64 letters, digits, '-' or '_'`},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := CheckFormat(strings.NewReader(c.nb))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rep.Problems, c.want) {
				t.Errorf("problems = %v, want %v", rep.Problems, c.want)
			}
			if rep.OK() != (len(c.want) == 0) {
				t.Errorf("OK() = %v with problems %v", rep.OK(), rep.Problems)
			}
		})
	}
}

func TestCheckFormatBadInput(t *testing.T) {
	for _, in := range []string{
		`not json`,
		`{"nbformat":5,"nbformat_minor":0,"cells":[]}`,
		`{"nbformat":4,"nbformat_minor":5,"cells":[{"id":7,"cell_type":"code","source":""}]}`,
	} {
		if _, err := CheckFormat(strings.NewReader(in)); !errors.Is(err, ErrFormat) {
			t.Errorf("CheckFormat(%q): err = %v, want ErrFormat", in, err)
		}
	}
}

// Every notebook the repository holds is nbformat 4.5 or later with unique
// cell ids: the six notebooks, the deliberately failing ones and their
// executed copies.
func TestNotebooksFormat(t *testing.T) {
	var nbs []string
	for _, pattern := range []string{"*.ipynb", "testdata/*.ipynb", "testdata/executed/*.ipynb"} {
		m, _ := filepath.Glob(filepath.Join("..", pattern))
		if len(m) == 0 {
			t.Fatalf("no notebooks match ../%s", pattern)
		}
		nbs = append(nbs, m...)
	}
	for _, nb := range nbs {
		rep, err := CheckFormatFile(nb)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() {
			t.Errorf("%s: %v", nb, rep.Problems)
		}
		if rep.Cells == 0 {
			t.Errorf("%s: no cells", nb)
		}
	}
}
