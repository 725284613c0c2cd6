package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCalibrateKeyGivenTwice: a key given two values in a -calibrate item
// is refused rather than read as its last value without a word, and an
// unknown collective= is a usage error (exit 2) like every other bad value
// there, not predict's exit 1 (red team 38). The same value twice, and test
// repeated, stand.
func TestCalibrateKeyGivenTwice(t *testing.T) {
	args := func(item string) []string {
		return []string{"predict", "-calibrate", ringLog + item, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"}
	}
	for _, c := range []struct {
		item string
		code int
		want string
	}{
		{":nodes=1:nodes=2", 2, "nodes given twice (nodes=1 and nodes=2)"},
		{":collective=unknown", 2, `collective="unknown": want one of allreduce`},
		{":nodes=1:nodes=1:test=0:test=0", 0, ""},
	} {
		var out, errb bytes.Buffer
		if code := run(args(c.item), &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: exit %d, %s; want exit %d and %q", c.item, code, errb.String(), c.code, c.want)
		}
	}
}
