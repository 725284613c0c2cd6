package nbcheck

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The executed copies of the deliberately failing notebooks, written by
// "scripts/notebooks.sh -update-testdata" from a real GoNB kernel run.
// nbconvert exited 0 on every one of them; want is what GoNB put in the
// outputs (see notebooks/testdata/*.ipynb for the cells).
func TestExecutedFailingNotebooks(t *testing.T) {
	cases := []struct {
		file   string
		want   []Kind
		images int
	}{
		{"panic.ipynb", []Kind{Panic, ExitStatus}, 1}, // "panic: assignment to entry in nil map", then "exit status 2"
		{"fatal.ipynb", []Kind{ExitStatus}, 1},        // log.Fatal: the message, then "exit status 1"
		{"exit.ipynb", []Kind{ExitStatus}, 1},         // os.Exit(1): only "exit status 1"
		{"bang.ipynb", []Kind{ExitStatus}, 1},         // "!ls /nonexistent/...": ls exits 2
		{"compile.ipynb", []Kind{ErrorOutput}, 1},     // GoNB reports compile errors as an error output
		{"noimage.ipynb", []Kind{NoImage}, 0},         // runs cleanly, shows no plot
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			rep, err := CheckFile(filepath.Join("..", "testdata", "executed", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Kinds(); !slices.Equal(got, c.want) {
				t.Errorf("kinds = %v, want %v; problems %v", got, c.want, rep.Problems)
			}
			if rep.Images != c.images {
				t.Errorf("images = %d, want %d", rep.Images, c.images)
			}
			if !rep.FailsAsExpected() {
				t.Errorf("metadata expects %v, found %v", rep.Expect, rep.Kinds())
			}
		})
	}
}

// Every failing notebook under testdata has an executed copy, so that the
// table above cannot silently miss one.
func TestEveryFailingNotebookHasAnExecutedCopy(t *testing.T) {
	srcs, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	if len(srcs) == 0 {
		t.Fatal("no notebooks in ../testdata")
	}
	for _, s := range srcs {
		if _, err := os.Stat(filepath.Join("..", "testdata", "executed", filepath.Base(s))); err != nil {
			t.Errorf("%s: no executed copy (run scripts/notebooks.sh -update-testdata): %v", s, err)
		}
	}
}

// The committed notebooks carry their outputs and ran cleanly: this is what a
// reader sees on GitHub.
func TestCommittedNotebooksAreClean(t *testing.T) {
	nbs, _ := filepath.Glob(filepath.Join("..", "*.ipynb"))
	if len(nbs) == 0 {
		t.Fatal("no notebooks in ..")
	}
	for _, nb := range nbs {
		rep, err := CheckFile(nb)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() || rep.Images == 0 || rep.CodeCells == 0 {
			t.Errorf("%s: %d images, %d code cells, problems %v", nb, rep.Images, rep.CodeCells, rep.Problems)
		}
	}
}

func TestCheckInline(t *testing.T) {
	const png = `{"output_type":"display_data","data":{"image/png":"iVBORw0KGgo="},"metadata":{}}`
	cases := []struct {
		name   string
		nb     string
		want   []Kind
		images int
	}{
		{"clean, text as arrays",
			`{"nbformat":4,"cells":[{"cell_type":"code","execution_count":1,"source":["%%\n","fmt.Println(1)"],
			"outputs":[` + png + `,{"output_type":"stream","name":"stdout","text":["1\n"]}]}]}`, nil, 1},
		// "panic:" on stdout is program output, not a Go panic.
		{"panic on stdout only",
			`{"nbformat":4,"cells":[{"cell_type":"code","execution_count":1,"source":"x","outputs":[` + png +
				`,{"output_type":"stream","name":"stdout","text":"panic: is just a word here\nexit status 3\n"}]}]}`, nil, 1},
		{"markdown mentioning exit status",
			`{"nbformat":4,"cells":[{"cell_type":"markdown","source":"exit status 1, panic:"},
			{"cell_type":"code","execution_count":1,"source":"x","outputs":[` + png + `]}]}`, nil, 1},
		{"cell never executed",
			`{"nbformat":4,"cells":[{"cell_type":"code","execution_count":null,"source":"%%\nfmt.Println(1)","outputs":[]},
			{"cell_type":"code","execution_count":null,"source":"  \n","outputs":[]},
			{"cell_type":"code","execution_count":2,"source":"y","outputs":[` + png + `]}]}`, []Kind{NotExecuted}, 1},
		{"error output",
			`{"nbformat":4,"cells":[{"cell_type":"code","execution_count":1,"source":"x","outputs":[
			{"output_type":"error","ename":"ERROR","evalue":"main.go:3: undefined: y","traceback":[]}]}]}`, []Kind{ErrorOutput, NoImage}, 0},
		{"negative exit status",
			`{"nbformat":4,"cells":[{"cell_type":"code","execution_count":1,"source":"x","outputs":[` + png +
				`,{"output_type":"stream","name":"stderr","text":"signal: killed\nexit status -1\n"}]}]}`, []Kind{ExitStatus}, 1},
		{"no cells", `{"nbformat":4,"cells":[]}`, []Kind{NoImage}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Check(strings.NewReader(c.nb))
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Kinds(); !slices.Equal(got, c.want) {
				t.Errorf("kinds = %v, want %v (%v)", got, c.want, rep.Problems)
			}
			if rep.Images != c.images {
				t.Errorf("images = %d, want %d", rep.Images, c.images)
			}
		})
	}
}

func TestCheckBadInput(t *testing.T) {
	for _, in := range []string{
		``,
		`not json`,
		`{"nbformat":3,"worksheets":[]}`,
		`{"nbformat":4,"cells":[{"cell_type":"code","source":42}]}`,
		`{"nbformat":4,"cells":{}}`,
	} {
		if _, err := Check(strings.NewReader(in)); !errors.Is(err, ErrFormat) {
			t.Errorf("Check(%q): err = %v, want ErrFormat", in, err)
		}
	}
	if _, err := CheckFile("no-such-file.ipynb"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("CheckFile on a missing file: err = %v", err)
	}
}

func TestFailsAsExpected(t *testing.T) {
	p := func(ks ...Kind) []Problem {
		var ps []Problem
		for _, k := range ks {
			ps = append(ps, Problem{Cell: 0, Kind: k})
		}
		return ps
	}
	cases := []struct {
		rep  Report
		want bool
	}{
		{Report{}, false},
		{Report{Problems: p(Panic)}, true},
		{Report{Problems: p(Panic, ExitStatus, Panic), Expect: []Kind{ExitStatus, Panic}}, true},
		{Report{Problems: p(ExitStatus), Expect: []Kind{Panic}}, false},
		{Report{Problems: p(Panic, NoImage), Expect: []Kind{Panic}}, false},
	}
	for i, c := range cases {
		if got := c.rep.FailsAsExpected(); got != c.want {
			t.Errorf("case %d: FailsAsExpected() = %v, want %v", i, got, c.want)
		}
	}
}

// FuzzCheck: any input gives a report or an ErrFormat error, never a panic,
// from Check and CheckFormat alike.
// Seeds: testdata/fuzz/FuzzCheck and the executed failing notebooks.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "executed", "*.ipynb"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := Check(strings.NewReader(string(b)))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		if rep.OK() && rep.Images == 0 {
			t.Fatal("a notebook without images passed")
		}
		// CheckFormat reads the same input: it must accept it too, and count
		// the same cells.
		frep, err := CheckFormat(strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("Check accepted the input, CheckFormat did not: %v", err)
		}
		if frep.Cells != rep.Cells || frep.Images != rep.Images {
			t.Fatalf("CheckFormat counts %d cells, %d images; Check %d, %d", frep.Cells, frep.Images, rep.Cells, rep.Images)
		}
		for _, p := range append(rep.Problems, frep.Problems...) {
			if p.Cell >= rep.Cells {
				t.Fatalf("problem %v names a cell past %d", p, rep.Cells)
			}
		}
	})
}
