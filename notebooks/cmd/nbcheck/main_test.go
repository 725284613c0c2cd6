package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var failing, _ = filepath.Glob(filepath.Join("..", "..", "testdata", "executed", "*.ipynb"))

const clean = "../../01_allreduce.ipynb" // committed executed notebook, clean

func TestRunStatus(t *testing.T) {
	if len(failing) == 0 {
		t.Fatal("no executed failing notebooks")
	}
	times := filepath.Join(t.TempDir(), "times")
	if err := os.WriteFile(times, []byte(clean+"\t3.25\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	old44, dupIDs := filepath.Join(dir, "old.ipynb"), filepath.Join(dir, "dup.ipynb")
	for name, nb := range map[string]string{
		old44:  `{"nbformat":4,"nbformat_minor":4,"cells":[{"cell_type":"markdown","metadata":{},"source":"x"}]}`,
		dupIDs: `{"nbformat":4,"nbformat_minor":5,"cells":[{"id":"a","cell_type":"markdown","metadata":{},"source":"x"},{"id":"a","cell_type":"markdown","metadata":{},"source":"y"}]}`,
	} {
		if err := os.WriteFile(name, []byte(nb), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name string
		args []string
		want int
		out  []string
	}{
		{"clean", []string{"-times", times, clean}, 0, []string{"01_allreduce.ipynb", "3.2", "1 passed, 0 failed"}},
		{"failing", append([]string{}, failing...), 1, []string{"FAIL", "panic: assignment to entry in nil map", "0 passed"}},
		{"failing expected", append([]string{"-expect-fail"}, failing...), 0, []string{"caught: panic,exit-status", "0 failed"}},
		// A clean notebook is not a failure that was caught.
		{"clean expected to fail", []string{"-expect-fail", clean}, 1, []string{"want no problem, got no problem", "1 failed"}},
		{"no arguments", nil, 2, nil},
		// The committed copy of itself is never stale; a failing notebook
		// compared with a clean one differs.
		{"committed same", []string{"-committed", "../..", clean}, 0, []string{"1 passed"}},
		{"missing file", []string{"nope.ipynb"}, 2, nil},
		// -format reads the notebooks' format only: the failing notebooks pass it.
		{"format", append([]string{"-format", clean}, failing...), 0, []string{"01_allreduce.ipynb", "panic.ipynb", fmt.Sprintf("%d passed, 0 failed", len(failing)+1)}},
		{"format of old notebooks", []string{"-format", old44, dupIDs}, 1, []string{
			"old-format: nbformat 4.4, want 4.5 or later", `cell 1: cell-id: id "a" is also cell 0's`, "0 passed, 2 failed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if got := run(c.args, &out, &errb); got != c.want {
				t.Fatalf("status %d, want %d\nstdout:\n%s\nstderr:\n%s", got, c.want, out.String(), errb.String())
			}
			for _, s := range c.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
		})
	}
}

func TestReadTimesBadLine(t *testing.T) {
	name := filepath.Join(t.TempDir(), "times")
	if err := os.WriteFile(name, []byte("a.ipynb\t1.5\nb.ipynb 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readTimes(name)
	if err == nil || !strings.Contains(err.Error(), name+":2:") {
		t.Fatalf("err = %v, want it to name %s:2", err, name)
	}
}

func TestRunWarnsStale(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "executed", "panic.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	// Pretend the executed panic notebook is the committed copy of the clean one.
	if err := os.WriteFile(filepath.Join(dir, filepath.Base(clean)), b, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if got := run([]string{"-committed", dir, clean}, &out, &errb); got != 0 {
		t.Fatalf("status %d: a stale copy must only warn\n%s%s", got, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "warning: ") || !strings.Contains(out.String(), "differ from the committed copy") {
		t.Errorf("no stale warning:\n%s", out.String())
	}
}
