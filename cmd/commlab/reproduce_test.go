package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/inframethod/commlab/article"
	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/internal/fuzzmin"
	"github.com/inframethod/commlab/presets"
)

// TestMain builds the article's exhibits at most once for every test of the
// package: building them takes most of a test run, and no test changes them.
// When a test that needs them is to run, the building starts at once, on a
// goroutine of its own, beside the tests that run before it (TestDocs, on
// one core of two). Under -short the tests write two exhibits that build in
// milliseconds instead, a table and a figure, which take every path of
// reproduce; package article's tests build the article's own. The fuzzer's
// minimising is bounded (fuzzmin.Bound).
func TestMain(m *testing.M) {
	flag.Parse()
	fuzzmin.Bound()
	if testing.Short() {
		exhibits = modelExhibits
	} else {
		build := sync.OnceValues(exhibits)
		exhibits = build
		if runs("TestReproduceJSON") || runs("TestReproduceTable") {
			if runs("TestReadLogMemory") && !raceDetector {
				// Before the building starts: see readLogMemory.
				dir, err := os.MkdirTemp("", "commlab-readlog")
				if err != nil {
					readLogMemory = readLogMeasure{measured: true, err: err}
				} else {
					readLogMemory = measureReadLog(dir)
					os.RemoveAll(dir)
				}
			}
			go build()
		}
	}
	os.Exit(m.Run())
}

// runs reports whether -run selects the top-level test name (-skip aside).
func runs(name string) bool {
	f := flag.Lookup("test.run")
	if f == nil || f.Value.String() == "" {
		return true
	}
	top, _, _ := strings.Cut(f.Value.String(), "/")
	ok, err := regexp.MatchString(top, name)
	return ok || err != nil
}

// modelExhibits are the ring and one-shot AllReduce on the article's 8 x H20
// node, as a table and as a figure.
func modelExhibits() ([]article.Exhibit, error) {
	algs := []commmodel.Algorithm{commmodel.Ring{}, commmodel.OneShot{}}
	sizes := figure.Sizes(1<<10, 1<<30, 1)
	table := figure.ModelTable(algs, 8, presets.H20Intra, sizes)
	return []article.Exhibit{
		{Name: "00-allreduce-table", Title: "Ring and one-shot AllReduce on 8 H20 GPUs", Table: &table},
		{Name: "00-allreduce-times", Title: "Ring and one-shot AllReduce times on 8 H20 GPUs",
			Figure: figure.TimeFigure("AllReduce on 8 H20 GPUs", algs, commmodel.Flat{P: 8, Link: presets.H20Intra}, sizes)},
	}, nil
}

type reproduceJSONOut struct {
	Out   string `json:"out"`
	Files []struct {
		Name  string `json:"name"`
		Title string `json:"title"`
		Path  string `json:"path"`
		Kind  string `json:"kind"`
	} `json:"files"`
}

// TestReproduceJSON writes every registered exhibit into a fresh folder and
// checks each against the registry: the file exists, a figure decodes as PNG,
// a table's file holds the table's Markdown, and the index names it.
func TestReproduceJSON(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out") // created by the command
	var stdout, stderr bytes.Buffer
	if code := run([]string{"reproduce", "-json", "-o", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	var res reproduceJSONOut
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout.String())
	}
	if res.Out != dir {
		t.Errorf("out %q, want %q", res.Out, dir)
	}
	want, err := exhibits()
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("no exhibits registered: notebook 02 registers some")
	}
	if len(res.Files) != len(want) {
		t.Fatalf("%d files listed, %d exhibits registered", len(res.Files), len(want))
	}
	index, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range want {
		f := res.Files[i]
		if f.Name != e.Name || f.Title != e.Title {
			t.Errorf("file %d is %q %q, want %q %q", i, f.Name, f.Title, e.Name, e.Title)
		}
		b, err := os.ReadFile(f.Path)
		if err != nil {
			t.Errorf("%s: %v", e.Name, err)
			continue
		}
		switch {
		case e.Table != nil:
			if f.Kind != "table" || f.Path != filepath.Join(dir, e.Name+".md") {
				t.Errorf("%s: kind %q path %q", e.Name, f.Kind, f.Path)
			}
			if !strings.Contains(string(b), e.Table.Markdown()) || !strings.HasPrefix(string(b), "# "+e.Title+"\n") {
				t.Errorf("%s: file does not hold its title and table", e.Name)
			}
		default:
			if f.Kind != "figure" || f.Path != filepath.Join(dir, e.Name+".png") {
				t.Errorf("%s: kind %q path %q", e.Name, f.Kind, f.Path)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Errorf("%s: not a PNG: %v", e.Name, err)
			} else if r := img.Bounds(); r.Dx() < 100 || r.Dy() < 100 {
				t.Errorf("%s: image is %v", e.Name, r)
			}
		}
		if !strings.Contains(string(index), "["+e.Name+"]("+filepath.Base(f.Path)+")") || !strings.Contains(string(index), e.Title) {
			t.Errorf("README.md does not list %s with its title", e.Name)
		}
	}
	if testing.Short() {
		return
	}
	// Notebook 02's exhibits are among them.
	for _, name := range []string{"02-gpu-nic-article", "02-path-map", "02-nic-share"} {
		if !strings.Contains(string(index), "["+name+"]") {
			t.Errorf("README.md lacks %s", name)
		}
	}
}

// TestReproduceTable checks the readable output and that a second run into
// the same folder overwrites it.
func TestReproduceTable(t *testing.T) {
	t.Parallel()
	list, err := exhibits()
	if err != nil {
		t.Fatal(err)
	}
	figure := list[slices.IndexFunc(list, func(e article.Exhibit) bool { return e.Figure != nil })].Name
	dir := t.TempDir()
	for range 2 {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"reproduce", "-o", dir}, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d, stderr %s", code, stderr.String())
		}
		out := stdout.String()
		if !strings.Contains(out, "wrote ") || !strings.Contains(out, figure) || !strings.Contains(out, filepath.Join(dir, figure+".png")) {
			t.Errorf("output:\n%s", out)
		}
	}
}

// TestReproduceErrors checks that a bad command line or -o fails with its
// reason, writes nothing and builds no exhibit.
func TestReproduceErrors(t *testing.T) {
	built := exhibits
	t.Cleanup(func() { exhibits = built })
	exhibits = func() ([]article.Exhibit, error) {
		t.Error("built the exhibits before refusing the command line")
		return built()
	}
	file := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := t.TempDir() // holds someone else's README.md
	if err := os.WriteFile(filepath.Join(foreign, "README.md"), []byte("# my project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"reproduce", "-o", foreign}, "README.md exists and was not written by commlab reproduce"},
		{[]string{"reproduce"}, "need -o DIR"},
		{[]string{"reproduce", "-json"}, "need -o DIR"},
		{[]string{"reproduce", "-o", file}, "exists and is not a folder"},
		// A folder below a regular file cannot be created, even by root.
		{[]string{"reproduce", "-o", filepath.Join(file, "sub")}, "cannot create the folder"},
		{[]string{"reproduce", "-o", t.TempDir(), "extra"}, `unexpected argument "extra"`},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		if code == 0 {
			t.Errorf("%v: exit 0", c.args)
		}
		if !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%v: stderr %q, want it to contain %q", c.args, stderr.String(), c.msg)
		}
		if stdout.Len() != 0 {
			t.Errorf("%v: stdout %q, want nothing", c.args, stdout.String())
		}
	}
	if b, err := os.ReadFile(filepath.Join(foreign, "README.md")); err != nil || string(b) != "# my project\n" {
		t.Errorf("foreign README.md now %q (%v)", b, err)
	}
	if entries, _ := os.ReadDir(foreign); len(entries) != 1 {
		t.Errorf("refused run wrote %d files", len(entries)-1)
	}
}
