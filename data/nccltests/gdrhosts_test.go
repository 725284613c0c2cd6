package nccltests

import (
	"errors"
	"strings"
	"testing"
)

// gdrLog is hostNetsLog's 2 hosts x 2 GPUs with the lines in between
// (after the Rank lines, from line 8) that say of GPUDirect RDMA, in the
// formats of NCCL 2.23.4: src/graph/topo.cc:780 "NET/%s : GPU Direct RDMA
// %s for HCA %d '%s'", src/transport/net.cc:194 "Channel %02d/%d : %d[%d]
// -> %d[%d] [send] via NET/%s/%d%s%s" and :234 "... [receive] via
// NET/%s/%d%s%s" ("/GDRDMA" where req.useGdr), after debug.cc's prefix.
// Made-up lines, the rows of no run.
func gdrLog(lines ...string) string {
	head, rest, _ := strings.Cut(hostNetsLog, "node-a:4100:4150 [0] NCCL INFO NET/IB")
	_, rows, _ := strings.Cut(rest, "\n#\n")
	return head + strings.Join(lines, "\n") + "\n#\n" + rows
}

// GPUDirect RDMA is each host's first line's; where the hosts agree it is
// the earliest line, where they disagree it is unknown and the Reader says
// which lines disagree (ErrInconsistent).
func TestGPUDirectPerHost(t *testing.T) {
	const (
		aOn      = "node-a:4100:4150 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'"
		bOn      = "node-b:4200:4250 [0] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'"
		bOff     = "node-b:4200:4250 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'"
		aRecvGDR = "node-a:4100:4160 [0] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [receive] via NET/IB/0/GDRDMA"
		bRecv    = "node-b:4200:4260 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/IB/0"
		bSend    = "node-b:4201:4261 [1] NCCL INFO Channel 01/0 : 3[1] -> 0[0] [send] via NET/IB/0"
		bRecvGDR = "node-b:4200:4260 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/IB/0/GDRDMA"
		noHost   = "NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'"
	)
	for _, c := range []struct {
		name    string
		lines   []string
		want    Fact[bool]
		problem string // in the Reader's problem where the hosts disagree
	}{
		{"both on", []string{aOn, bOn}, Fact[bool]{true, 8}, ""},
		{"b's NIC without", []string{aOn, bOff}, Fact[bool]{}, "host node-a says GPUDirect RDMA on (line 8), host node-b off"},
		{"b first", []string{bOff, aOn}, Fact[bool]{}, "host node-b says GPUDirect RDMA off (line 8), host node-a on"},
		// A host's first line stands: b's later channel line does not undo its NIC's.
		{"host's first", []string{bOff, bRecvGDR}, Fact[bool]{false, 8}, ""},
		{"channels differ", []string{aRecvGDR, bRecv}, Fact[bool]{}, "host node-a says GPUDirect RDMA on (line 8), host node-b off"},
		{"channels agree", []string{aRecvGDR, bRecvGDR}, Fact[bool]{true, 8}, ""},
		// A send's line without "/GDRDMA" says nothing (NCCL_NET_GDR_READ).
		{"send without", []string{aRecvGDR, bSend}, Fact[bool]{true, 8}, ""},
		{"receive without", []string{bRecv}, Fact[bool]{false, 8}, ""},
		{"a line without a host", []string{aOn, noHost}, Fact[bool]{}, "host node-a says GPUDirect RDMA on (line 8), a line without a host off"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := readString(t, gdrLog(c.lines...), Options{})
			if len(l.Tests) != 1 {
				t.Fatalf("%d tests", len(l.Tests))
			}
			if got := l.Tests[0].Evidence.GPUDirect; got != c.want {
				t.Errorf("GPUDirect %v, want %v", got, c.want)
			}
			var found []string
			for _, p := range l.Problems {
				if strings.Contains(p.Error(), "GPUDirect") {
					found = append(found, p.Error())
					if !errors.Is(p, ErrInconsistent) {
						t.Errorf("%v: want ErrInconsistent", p)
					}
				}
			}
			if c.problem == "" && len(found) > 0 || c.problem != "" && (len(found) != 1 || !strings.Contains(found[0], c.problem)) {
				t.Errorf("problems %q, want one with %q", found, c.problem)
			}
		})
	}
}
