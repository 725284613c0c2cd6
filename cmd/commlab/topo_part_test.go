package main

import (
	"encoding/json"
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

// TestTopoWholeHostStorageNIC: a capture of as many GPUs as a host of the
// GPU holds is the whole host, whatever its NICs (review 49b, finding 1).
// topo/testdata/dgx_h100_storage_nic_pxb.txt, a DGX H100's 8 GPUs with a
// storage port PXB to GPU3's compute NIC, had been taken for part of its
// host by every command: no gpus_per_node, NICs or NIC path, and the note.
// With -gpu H100 (8 a host in the catalog) topo and predict take its
// facts and name its 8 compute NICs in NCCL_IB_HCA; topo without -gpu
// knows no host size and says so.
func TestTopoWholeHostStorageNIC(t *testing.T) {
	const capture = "../../topo/testdata/dgx_h100_storage_nic_pxb.txt"
	code, out, stderr := runCLI("topo", "-gpu", "H100", capture)
	if code != 0 || !strings.HasPrefix(out, "machine: gpus_per_node 8, fabric nvswitch, links 18, nics_per_node 8, nic_path PXN ") ||
		strings.Contains(out, "part of") || !strings.Contains(out, "NCCL_IB_HCA, the same on every rank of the host: =mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_6,") {
		t.Errorf("topo -gpu H100: exit %d:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCLI("topo", capture)
	if code != 0 || !strings.Contains(out, "the capture may show part of its host") || !strings.Contains(out, "without -gpu, topo knows no host size") {
		t.Errorf("topo: exit %d:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCLI("predict", "-gpu", "H100", "-topo", capture, "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1GiB")
	if code != 0 || strings.Contains(stderr, "part of its host") || !strings.Contains(out, "gpus_per_node 8 (topo)") || !strings.Contains(out, "nics_per_node 8 (topo)") || !strings.Contains(out, "nic_path PXN (topo)") {
		t.Errorf("predict: exit %d:\n%s%s", code, out, stderr)
	}
}

// TestTopoPartOfHostPCIe: commlab topo on a capture that may show part of
// its host, read as PCIe, says no fact of the NICs it does not settle
// (review 49b, finding 2): topo/testdata/two_of_eight_gpus_pcie.txt had
// printed "nics_per_node leaves out NIC2, ..." under the note that its
// NICs are not taken from it. -json carries the note in notes.
func TestTopoPartOfHostPCIe(t *testing.T) {
	const capture = "../../topo/testdata/two_of_eight_gpus_pcie.txt"
	code, out, stderr := runCLI("topo", capture)
	if code != 0 || !strings.HasPrefix(out, "machine: fabric pcie, nvls false ") || !strings.Contains(out, "\nthe capture may show part of its host") ||
		strings.Contains(out, "nics_per_node") || strings.Contains(out, "nic_path") {
		t.Errorf("topo: exit %d:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCLI("topo", "-json", capture)
	var got topoOut
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got.Notes) == 0 || !strings.HasPrefix(got.Notes[len(got.Notes)-1], "the capture may show part of its host") {
		t.Errorf("topo -json: exit %d, %v:\n%s%s", code, err, out, stderr)
	}
}

// TestCaptureNoteSettledCLI: predict prints no note on a capture that may
// show part of its host where -hw gives every fact it would name (review
// 49b, minor).
func TestCaptureNoteSettledCLI(t *testing.T) {
	const capture = "../../topo/testdata/hgx_h100_two_of_eight_gpus.txt"
	query := []string{"predict", "-gpu", "H100", "-topo", capture, "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1GiB", "-hw"}
	for spec, note := range map[string]bool{"gpus=8,nics=8,nic-path=PXN": true, "gpus=8,fabric=nvswitch,nics=8,nic-path=PXN": false} {
		code, _, stderr := runCLI(append(query, spec)...)
		if code != 0 || strings.Contains(stderr, "part of its host") != note {
			t.Errorf("-hw %s: exit %d, want a note: %v:\n%s", spec, code, note, stderr)
		}
	}
}
