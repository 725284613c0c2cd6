package nccltests

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// contradicted reads the nccl-tests#319 H100 log (2 x 8, NCCL 2.26.2,
// testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log)
// with its line k (1-based) replaced by each of lines, and returns its one
// test and its problems that wrap ErrInconsistent. Line 28 of the log is
// its "NET/IB : Using" list of 8 devices, 30 its comm line ("comm
// 0x5c2e9bbbb3f0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0
// MNNVL 0"), 31 and 33 its NCCL_ALGO and NCCL_IB_QPS_PER_CONNECTION
// lines, each of process lccn09:2520136.
func contradicted(t *testing.T, lines map[int]string) (*Test, []*ParseError) {
	t.Helper()
	b, err := os.ReadFile("testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Split(string(b), "\n")
	for k, l := range lines {
		text[k-1] = l
	}
	l, err := read(strings.NewReader(strings.Join(text, "\n")), "h100.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ps []*ParseError
	for _, p := range l.Problems {
		var pe *ParseError
		if errors.Is(p, ErrInconsistent) && errors.As(p, &pe) {
			ps = append(ps, pe)
		}
	}
	return l.Tests[0], ps
}

// prefix is the log's debug prefix of process lccn09:2520136.
const prefix = "lccn09:2520136:2520234 [0] NCCL INFO "

// TestCommLineCounts: a comm line whose counts NCCL cannot print
// together (init.cc:1285-1423 at 5067397c: nNodes counts nodes that each
// hold a rank, localRanks this rank's node's, at least 1 each; rank and
// localRank index them) is ErrInconsistent at its line and gives no count
// (red team C, finding 8: "localRanks 64" beside "nRanks 8", and "nNodes
// 3 ... localRanks 8 ... MNNVL 1" on 8 ranks, went without a word). The
// log as posted, and a line of 2 cliques of 8 under MNNVL, have none.
func TestCommLineCounts(t *testing.T) {
	const comm = prefix + "comm 0x5c2e9bbbb3f0 rank 0 "
	for _, c := range []struct {
		name, line, want string
	}{
		{"as posted", comm + "nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0", ""},
		{"2 cliques of 8", comm + "nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 1", ""},
		{"localRanks above nRanks", comm + "nRanks 16 nNodes 2 localRanks 64 localRank 0 MNNVL 0", "localRanks 64 of nRanks 16 on this node, where the other node (nNodes 2) holds a rank at least"},
		{"localRanks and the other nodes above nRanks", comm + "nRanks 16 nNodes 3 localRanks 16 localRank 0 MNNVL 1", "localRanks 16 of nRanks 16 on this node, where each of the 2 other nodes (nNodes 3)"},
		{"nNodes above nRanks", comm + "nRanks 16 nNodes 17 localRanks 1 localRank 0 MNNVL 0", "nNodes 17 of nRanks 16"},
		{"nNodes 0", comm + "nRanks 16 nNodes 0 localRanks 8 localRank 0 MNNVL 0", "a count below 1"},
		{"localRank past localRanks", comm + "nRanks 16 nNodes 2 localRanks 8 localRank 8 MNNVL 0", "localRank 8 of 8 localRanks"},
		{"rank past nRanks", prefix + "comm 0x5c2e9bbbb3f0 rank 16 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0", "rank 16 of 16 ranks"},
	} {
		test, ps := contradicted(t, map[int]string{30: c.line})
		if c.want == "" {
			if len(ps) != 0 || test.Evidence.Nodes != (Fact[int]{2, 30}) {
				t.Errorf("%s: problems %v, nodes %+v; want none, and 2 at line 30", c.name, ps, test.Evidence.Nodes)
			}
			continue
		}
		if len(ps) != 1 || ps[0].Line != 30 || !strings.Contains(ps[0].Error(), c.want) || !strings.Contains(ps[0].Error(), "left unread") {
			t.Errorf("%s: problems %v; want one at line 30 saying %q", c.name, ps, c.want)
		}
		if e := test.Evidence; e.Ranks.Line == 30 || e.Nodes.Known() || e.LocalRanks.Known() || e.MNNVL.Known() {
			t.Errorf("%s: ranks %+v nodes %+v local ranks %+v MNNVL %+v; want none from the line", c.name, e.Ranks, e.Nodes, e.LocalRanks, e.MNNVL)
		}
	}
}

// TestCommLinesOfOneComm: two comm lines of one process's comm that
// disagree are ErrInconsistent at the later, naming the earlier, and the
// comm lines give no count or MNNVL, where the first was taken without a
// word (red team C, finding 8: "comm 0x1" as "nNodes 2 ... MNNVL 0" and
// "nNodes 1 ... MNNVL 1"): NCCL prints one line a communicator, at the end
// of initTransportsRank (init.cc:1422 at 5067397c). The same line twice,
// and another process's comm at the same address (each process has its
// own address space), are no contradiction.
func TestCommLinesOfOneComm(t *testing.T) {
	const same = "comm 0x5c2e9bbbb3f0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0"
	const other = "comm 0x5c2e9bbbb3f0 rank 8 nRanks 16 nNodes 1 localRanks 16 localRank 8 MNNVL 1"
	for _, c := range []struct {
		name, line string
		mixed      bool
	}{
		{"the same line twice", prefix + same, false},
		{"another process's comm at the same address", "lccn10:4242:4300 [0] NCCL INFO " + other, false},
		{"the same comm with other counts", prefix + other, true},
	} {
		test, ps := contradicted(t, map[int]string{31: c.line})
		e := test.Evidence
		if !c.mixed {
			if len(ps) != 0 || e.Nodes != (Fact[int]{2, 30}) || e.MNNVL != (Fact[bool]{false, 30}) {
				t.Errorf("%s: problems %v, nodes %+v, MNNVL %+v; want none, and line 30's", c.name, ps, e.Nodes, e.MNNVL)
			}
			continue
		}
		if len(ps) != 1 || ps[0].Line != 31 || !strings.Contains(ps[0].Error(), "comm 0x5c2e9bbbb3f0 is rank 8 nRanks 16 nNodes 1 localRanks 16 localRank 8 MNNVL 1 here and rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0 on line 30") {
			t.Errorf("%s: problems %v; want one at line 31 naming line 30", c.name, ps)
		}
		if e.Ranks.Known() || e.Nodes.Known() || e.LocalRanks.Known() || e.MNNVL.Known() {
			t.Errorf("%s: ranks %+v nodes %+v local ranks %+v MNNVL %+v; want none", c.name, e.Ranks, e.Nodes, e.LocalRanks, e.MNNVL)
		}
	}
}

// TestMNNVLAgainstEnv: a comm line's MNNVL 1 where the environment keeps
// NCCL from setting MNNVL up is ErrInconsistent at the comm line, naming
// the setting's (red team C, finding 8): NCCL_MNNVL_ENABLE=0 in any
// release; NCCL_P2P_DISABLE=1 from 2.27.3, whose init.cc tries MNNVL only
// where "p2pLevel != 0" (init.cc:747 at v2.27.3-1), not in the log's own
// 2.26.2 (init.cc:741 at v2.26.6-1 has no such test). MNNVL stays as the
// comm line says.
func TestMNNVLAgainstEnv(t *testing.T) {
	const mnnvl = prefix + "comm 0x5c2e9bbbb3f0 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 1"
	const v2273 = "lccn09:2520136:2520136 [0] NCCL INFO NCCL version 2.27.3+cuda12.8"
	for _, c := range []struct {
		name  string
		lines map[int]string
		want  string
	}{
		{"MNNVL off", map[int]string{30: mnnvl, 33: prefix + "NCCL_MNNVL_ENABLE set by environment to 0."}, "NCCL_MNNVL_ENABLE=0 (line 33) keeps NCCL from setting MNNVL up"},
		{"P2P off on 2.26.2", map[int]string{30: mnnvl, 33: prefix + "NCCL_P2P_DISABLE set by environment to 1."}, ""},
		{"P2P off on 2.27.3", map[int]string{23: v2273, 30: mnnvl, 33: prefix + "NCCL_P2P_DISABLE set by environment to 1."}, "NCCL_P2P_DISABLE=1 (line 33) keeps NCCL 2.27.3, which tries MNNVL only where P2P is on,"},
		{"P2P off on 2.27.3 under NCCL_MNNVL_ENABLE=1", map[int]string{23: v2273, 30: mnnvl, 31: prefix + "NCCL_MNNVL_ENABLE set by environment to 1.", 33: prefix + "NCCL_P2P_DISABLE set by environment to 1."}, ""},
		{"MNNVL 0 with MNNVL off", map[int]string{33: prefix + "NCCL_MNNVL_ENABLE set by environment to 0."}, ""},
	} {
		test, ps := contradicted(t, c.lines)
		if c.want == "" {
			if len(ps) != 0 {
				t.Errorf("%s: problems %v; want none", c.name, ps)
			}
			continue
		}
		if len(ps) != 1 || ps[0].Line != 30 || !strings.Contains(ps[0].Error(), c.want) {
			t.Errorf("%s: problems %v; want one at line 30 saying %q", c.name, ps, c.want)
		}
		if m := test.Evidence.MNNVL; m != (Fact[bool]{true, 30}) {
			t.Errorf("%s: MNNVL %+v; want the comm line's", c.name, m)
		}
	}
}

// TestMNNVLOff: the settings that keep NCCL from setting MNNVL up, by
// release (init.cc:1072 at 5067397c, "(nNodes > 1 &&
// ncclParamMNNVLEnable() != 0 && p2pLevel != 0) || ncclParamMNNVLEnable()
// == 1", the p2pLevel test from v2.27.3-1's init.cc:747).
func TestMNNVLOff(t *testing.T) {
	v := func(s string) nccl.Version {
		r, err := nccl.ParseVersion(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	set := func(kv ...string) *Evidence {
		e := &Evidence{}
		for k := 0; k < len(kv); k += 2 {
			e.setEnv(Setting{Name: kv[k], Value: kv[k+1], Line: 10 + k})
		}
		return e
	}
	for _, c := range []struct {
		name    string
		e       *Evidence
		release nccl.Version
		off     string
	}{
		{"MNNVL off", set("NCCL_MNNVL_ENABLE", "0"), v("2.21.5"), "NCCL_MNNVL_ENABLE"},
		{"P2P off before 2.27.3", set("NCCL_P2P_DISABLE", "1"), v("2.27.2"), ""},
		{"P2P off from 2.27.3", set("NCCL_P2P_DISABLE", "1"), v("2.27.3"), "NCCL_P2P_DISABLE"},
		{"P2P off, release unknown", set("NCCL_P2P_DISABLE", "1"), nccl.Version{}, "NCCL_P2P_DISABLE"},
		{"P2P level LOC", set("NCCL_P2P_LEVEL", "LOC"), v("2.28.3"), "NCCL_P2P_LEVEL"},
		{"P2P off, MNNVL asked for", set("NCCL_P2P_DISABLE", "1", "NCCL_MNNVL_ENABLE", "1"), v("2.28.3"), ""},
		{"MNNVL asked for, then off", set("NCCL_MNNVL_ENABLE", "0", "NCCL_P2P_DISABLE", "1"), v("2.28.3"), "NCCL_MNNVL_ENABLE"},
	} {
		s, off := c.e.MNNVLOff(c.release)
		if off != (c.off != "") || s.Name != c.off {
			t.Errorf("%s: %+v %v; want %q", c.name, s, off, c.off)
		}
	}
}

// TestNICListedTwice: an "NET/IB : Using" line that lists a device's port,
// or an index, twice is ErrInconsistent at the line and gives no NICs
// (red team C, finding 10: "[0]mlx5_0:1/IB" 4 times read as 4 NICs, "nics_per_node 4 (nccl-debug)"):
// NCCL lists each port of ncclIbDevs once, at its own index
// (src/transport/net_ib/init.cc:488-512 at 5067397c). Two ports of one
// device are two NICs to NCCL (init.cc:338, a device's ports each an
// entry), each counted.
func TestNICListedTwice(t *testing.T) {
	const list = prefix + "NET/IB : Using [0]mlx5_0:1/IB/SHARP [1]mlx5_1:1/IB/SHARP [2]mlx5_2:1/IB/SHARP [3]mlx5_4:1/IB/SHARP [4]mlx5_5:1/IB/SHARP [5]mlx5_6:1/IB/SHARP [6]mlx5_7:1/IB/SHARP [7]mlx5_11:1/IB/SHARP [RO]; OOB bond0:192.168.11.9<0>"
	for _, c := range []struct {
		name, from, to, want string
		nics                 int
	}{
		{"as posted", "", "", "", 8},
		{"two ports of mlx5_0", "[1]mlx5_1:1", "[1]mlx5_0:2", "", 8},
		{"mlx5_0's port 1 twice", "[1]mlx5_1:1", "[1]mlx5_0:1", "names mlx5_0:1 twice", 0},
		{"index 0 twice", "[1]mlx5_1:1", "[0]mlx5_1:1", "names index [0] twice", 0},
	} {
		test, ps := contradicted(t, map[int]string{28: strings.Replace(list, c.from, c.to, 1)})
		e := test.Evidence
		if c.want == "" {
			if len(ps) != 0 || len(e.NICs) != c.nics || e.NICCount != (Fact[int]{c.nics, 28}) {
				t.Errorf("%s: problems %v, %d NICs, count %+v; want none, and %d at line 28", c.name, ps, len(e.NICs), e.NICCount, c.nics)
			}
			continue
		}
		if len(ps) != 1 || ps[0].Line != 28 || !strings.Contains(ps[0].Error(), c.want) {
			t.Errorf("%s: problems %v; want one at line 28 saying %q", c.name, ps, c.want)
		}
		if len(e.NICs) != 0 || e.NICCount.Line == 28 {
			t.Errorf("%s: NICs %+v, count %+v; want none from line 28", c.name, e.NICs, e.NICCount)
		}
	}
	// The red team's line: one device 4 times.
	var d debugState
	d.line(5, "h0", "NET/IB : Using [0]mlx5_0:1/IB [0]mlx5_0:1/IB [0]mlx5_0:1/IB [0]mlx5_0:1/IB [RO]; OOB eth0:10.0.0.1<0>")
	if e := d.evidence(); e.NICCount.Known() || len(e.NICs) != 0 || len(d.damaged) != 1 || d.damaged[0].line != 5 {
		t.Errorf("one device 4 times: count %+v, NICs %+v, damaged %+v; want no count, and one problem at line 5", e.NICCount, e.NICs, d.damaged)
	}
}

// TestGraphLineUnread: a graph search's line NCCL's format prints (search.cc
// "Pattern %d, ..., type %s/%s, ...") with a path type neither NCCL nor
// RCCL names is a problem at its line, and gives no NIC path; a line of
// another form says nothing.
func TestGraphLineUnread(t *testing.T) {
	var d debugState
	d.line(7, "h0", "Pattern 4, crossNic 0, nChannels 16, bw 48.000000/48.000000, type QQQ/PHB, sameChannels 1")
	if e := d.evidence(); e.NICPath.Known() || len(d.damaged) != 1 || d.damaged[0].line != 7 || !strings.Contains(d.damaged[0].err.Error(), `"QQQ"`) {
		t.Errorf("unknown path type: path %+v, damaged %+v; want no path, and one problem at line 7 naming QQQ", e.NICPath, d.damaged)
	}
	d = debugState{}
	d.line(7, "h0", "Pattern 4 was searched")
	if e := d.evidence(); e.NICPath.Known() || len(d.damaged) != 0 {
		t.Errorf("another line: path %+v, damaged %+v; want neither", e.NICPath, d.damaged)
	}
}
