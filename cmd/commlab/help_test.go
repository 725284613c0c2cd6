package main

import (
	"strings"
	"testing"
)

// TestHelpAndReproduceUsage: "commlab help NAME" prints NAME's usage (as
// NAME -h, exit 0), and a NAME that is no subcommand is the usage error it
// is without help (exit 2, not help's 0); reproduce without -o is a usage
// error, exit 2, not 1 (red team 38).
func TestHelpAndReproduceUsage(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stream string
		want   string
	}{
		{[]string{"help", "predict"}, 0, "out", "usage: commlab predict"},
		{[]string{"help", "nosuch"}, 2, "err", `unknown subcommand "nosuch"`},
		{[]string{"help"}, 0, "out", "usage: commlab <subcommand>"},
		{[]string{"reproduce"}, 2, "err", "need -o DIR"},
	} {
		code, out, stderr := runCLI(c.args...)
		got := map[string]string{"out": out, "err": stderr}[c.stream]
		if code != c.code || !strings.Contains(got, c.want) {
			t.Errorf("%q: exit %d, std%s %.200q; want exit %d and %q", c.args, code, c.stream, got, c.code, c.want)
		}
	}
}
