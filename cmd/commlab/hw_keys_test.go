package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHardwareKeyGivenTwice: a -hw key given two values, on the command
// line (a usage error) or in a file (an error at its file and line), is
// refused rather than read as its last value without a word; a -hw file's
// bad value is named with its file and line (red team 38). The same value
// twice stands.
func TestHardwareKeyGivenTwice(t *testing.T) {
	dir := t.TempDir()
	twice := filepath.Join(dir, "twice.hw")
	bad := filepath.Join(dir, "bad.hw")
	for name, text := range map[string]string{twice: "links=18\nlink-bw=25GB/s # per link\nlinks=2\n", bad: "links=18\n\nnics=0\n"} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		hw   string
		code int
		want string
	}{
		{"links=18,links=2", 2, "-hw: links given twice (links=18 and links=2)"},
		{twice, 1, twice + ":3: links given twice (links=2 here, links=18 on line 1)"},
		{bad, 1, bad + ":3: hardware nics=0: want a count"},
		{"links=18, links=18", 0, ""},
	} {
		args := []string{"predict", "-gpu", "H100", "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1MiB", "-hw", c.hw}
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("-hw %q: exit %d, %s; want exit %d and %q", c.hw, code, errb.String(), c.code, c.want)
		}
	}
}
