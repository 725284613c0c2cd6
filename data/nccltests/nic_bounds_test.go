package nccltests

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestNICCountBounds: Perlmutter's 2 x 4 AllReduce, whose OFI plugin
// prints "NET/OFI Selected Provider is cxi (found 8 nics)" (aws-ofi-nccl,
// "Selected provider is %s, fabric is %s (found %d nics)" in
// src/nccl_ofi_net.cpp of 2daf7d30), with one line's count damaged: the
// red team's "found 100000 nics" passed the reader and stopped predict
// with "Hardware.NICs 100000" and no line; "found 0 nics" and a count too
// large for an int were dropped silently. Each is reported at its line
// (ErrNumber) and left out, the other lines' 8 kept; so is a channel's
// device or a listed device's index out of range.
func TestNICCountBounds(t *testing.T) {
	b, err := os.ReadFile("testdata/real/a100_2x4_allreduce_ncclinfo_perlmutter_ss11.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	first := func(sub string) int {
		for i, l := range lines {
			if strings.Contains(l, sub) {
				return i
			}
		}
		t.Fatalf("no line holds %q", sub)
		return 0
	}
	ofi, via := first("(found 8 nics)"), first("via NET/AWS Libfabric/5/GDRDMA")
	for _, c := range []struct {
		name, from, to string
		at             int
	}{
		{"100000", "(found 8 nics)", "(found 100000 nics)", ofi},
		{"0", "(found 8 nics)", "(found 0 nics)", ofi},
		{"overflow", "(found 8 nics)", "(found 99999999999999999999 nics)", ofi},
		{"channel device", "Libfabric/5/GDRDMA", "Libfabric/65536/GDRDMA", via},
	} {
		damaged := append([]string{}, lines...)
		damaged[c.at] = strings.Replace(damaged[c.at], c.from, c.to, 1)
		r := readString(t, strings.Join(damaged, "\n"), Options{})
		var found []*ParseError
		for _, p := range r.Problems {
			var pe *ParseError
			if errors.As(p, &pe) && errors.Is(p, ErrNumber) && strings.Contains(p.Error(), "want ") {
				found = append(found, pe)
			}
		}
		if len(found) != 1 || found[0].Line != c.at+1 {
			t.Errorf("%s: problems %v; want one bad number at line %d", c.name, r.Problems, c.at+1)
		}
		if len(r.Tests) != 1 {
			t.Fatalf("%s: %d tests", c.name, len(r.Tests))
		}
		e := r.Tests[0].Evidence
		if e.PluginNICs.Value != 8 || e.PluginNICs.Line == c.at+1 {
			t.Errorf("%s: PluginNICs %+v; want 8 from another line", c.name, e.PluginNICs)
		}
		for _, hn := range e.HostNets {
			if slices.ContainsFunc(hn.Devices, func(d int) bool { return d >= MaxNICs }) {
				t.Errorf("%s: host %s's devices %v", c.name, hn.Host, hn.Devices)
			}
		}
	}
	// A listed device's index beyond the bound leaves the list out.
	var d debugState
	d.line(7, "", "NET/IB : Using [65536]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.0.0.1<0>")
	if e := d.evidence(); e.NICCount.Known() || len(e.NICs) != 0 || len(d.dropped) != 1 || d.dropped[0].line != 7 {
		t.Errorf("NIC count %+v, NICs %+v, dropped %+v; want none read, one dropped at line 7", e.NICCount, e.NICs, d.dropped)
	}
	if !regexp.MustCompile(`^\d+$`).MatchString(d.dropped[0].digits) {
		t.Errorf("dropped %+v", d.dropped[0])
	}
}
