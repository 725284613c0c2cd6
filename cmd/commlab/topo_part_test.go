package main

import (
	"strings"
	"testing"
)

// TestPredictTopoPartOfHost: predict -topo with a capture that may show
// part of its host (red team D, finding 2):
// topo/testdata/hgx_h100_two_of_eight_gpus.txt, GPU0 and GPU1 of an HGX
// H100 with all 8 NICs, as a container given 2 of its GPUs prints it. It
// had set gpus_per_node 2, fabric mesh, nvls false, 2 NICs and nic_path
// PXN from the capture, and a 2 x 8 AllReduce of 1 GiB ran Tree, about
// three times NVLSTree's time with no capture, with a warning that the
// capture's fabric and NICs were taken for the whole host. The capture
// now leaves them: the prediction is the one without it, with a warning
// that names the NICs that look like rails and the -hw keys that settle
// what it leaves; topo prints the same and settles nothing.
func TestPredictTopoPartOfHost(t *testing.T) {
	const capture = "../../topo/testdata/hgx_h100_two_of_eight_gpus.txt"
	query := []string{"-gpu", "NVIDIA H100 80GB HBM3", "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1GiB"}
	code, with, stderr := runCLI(append([]string{"predict", "-topo", capture}, query...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, without, _ := runCLI(append([]string{"predict"}, query...)...)
	row := func(out string) string {
		for l := range strings.Lines(out) {
			if strings.HasPrefix(l, "  1 GiB") {
				return l
			}
		}
		return ""
	}
	if r := row(with); r == "" || r != row(without) || !strings.Contains(r, "NVLSTree") {
		t.Errorf("with the capture %q, without %q", r, row(without))
	}
	if strings.Contains(with, "(topo)") {
		t.Errorf("facts from the capture of part of a host:\n%s", with)
	}
	for _, want := range []string{capture + ": the capture may show part of its host", "NIC2, NIC3, NIC4, NIC5, NIC6 and NIC7", "-hw gpus=G,fabric=nvswitch|mesh,nics=N"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("warnings lack %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "taken for the whole host") {
		t.Errorf("warnings say the capture is taken for the whole host:\n%s", stderr)
	}
	code, out, stderr := runCLI("topo", capture)
	if code != 0 || !strings.HasPrefix(out, "machine: the capture settles no fact the model takes\nthe capture may show part of its host") || strings.Contains(out, "-hw gpus=2") {
		t.Errorf("topo: exit %d:\n%s%s", code, out, stderr)
	}
	// A whole host's capture, and a host of two bridged GPUs, keep their
	// facts.
	for _, c := range []struct{ file, machine string }{
		{"../../topo/testdata/real/h100_hgx_8nic_sglang30401.txt", "machine: gpus_per_node 8, fabric nvswitch, links 18, nics_per_node 8, nic_path PXN "},
		{"../../topo/testdata/workstation_nv4_pair.txt", "machine: gpus_per_node 2, fabric mesh, links 4, nvls false "},
	} {
		if code, out, stderr := runCLI("topo", c.file); code != 0 || !strings.HasPrefix(out, c.machine) || strings.Contains(out, "part of its host") {
			t.Errorf("topo %s: exit %d:\n%s%s", c.file, code, out, stderr)
		}
	}
}
