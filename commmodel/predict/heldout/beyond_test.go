package heldout_test

import (
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
)

// TestBeyond calibrates on cluster01's AllReduce and AllGather tables of 1
// and 10 nodes of 8 GPUs and asks for runs within and beyond them: Beyond
// names each way a query leaves the tables
// (TestDepartureWidens checks what each adds to the interval).
func TestBeyond(t *testing.T) {
	t.Parallel()
	var pm heldout.PairedMachine
	for _, m := range pairedMachines(t) {
		if m.Name == "h100-sxm-10node-cluster01" {
			pm = m
		}
	}
	var tables []predict.Table
	for _, tb := range pm.Tables {
		if (strings.Contains(tb.Name, "N10_G8") || strings.Contains(tb.Name, "N1_G8")) &&
			(tb.Collective == commmodel.AllReduce || tb.Collective == commmodel.AllGather) {
			tables = append(tables, tb)
		}
	}
	if len(tables) != 4 {
		t.Fatalf("%d tables, want 4: AllReduce and AllGather of 1 x 8 and 10 x 8", len(tables))
	}
	m, err := predict.Calibrate(pm.Hardware, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	within := predict.Query{Collective: commmodel.AllReduce, Ranks: 40, PerNode: 8}
	for _, c := range []struct {
		name      string
		q         predict.Query
		sentences int
		wants     []string // what the sentences say, in order
	}{
		{"within", within, 0, nil},
		{"collective", predict.Query{Collective: commmodel.Broadcast, Ranks: 40, PerNode: 8}, 1, []string{"no calibration table ran broadcast"}},
		// log2(640/10) = 3.0 doublings above the largest table.
		// A ring leaves a group of g hosts 1/g of its bytes: the groups'
		// description binds it only past R = g, and AllToAll far sooner.
		{"more nodes", predict.Query{Collective: commmodel.AllReduce, Ranks: 640, PerNode: 8}, 1,
			[]string{"80 nodes is 3.0 doublings beyond the tables' 1 to 10", "a table of more nodes is what narrows it", "binds its uplinks only as R nears HOSTS"}},
		{"more nodes of AllToAll", predict.Query{Collective: commmodel.AllToAll, Ranks: 640, PerNode: 8}, 3,
			[]string{"no calibration table ran alltoall", "80 nodes is 3.0 doublings beyond the tables' 1 to 10", "describe it with -hw group=HOSTS,oversub=R"}},
		{"layout", predict.Query{Collective: commmodel.AllReduce, Ranks: 40, PerNode: 8, Layout: predict.Layout{GPUsPerThread: 8}}, 1,
			[]string{"no calibration table ran 1 thread a process of 8 GPUs each"}},
		// 20 nodes of 16 GPUs: 1.0 doubling of nodes, 2.0 of ranks (320
		// from 80); both say so, the network's hint with the nodes.
		{"more nodes and more ranks", predict.Query{Collective: commmodel.AllReduce, Ranks: 320, PerNode: 16}, 2,
			[]string{"20 nodes is 1.0 doublings beyond the tables' 1 to 10", "-hw group=HOSTS,oversub=R", "320 ranks is 2.0 doublings beyond the tables' 8 to 80"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := m.Beyond(c.q)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.wants) == 0 {
				if len(got) != 0 {
					t.Fatalf("Beyond = %q, want nothing", got)
				}
				return
			}
			all := strings.Join(got, " | ")
			if len(got) != c.sentences {
				t.Fatalf("Beyond = %q, want a sentence for each departure", got)
			}
			for _, w := range c.wants {
				if !strings.Contains(all, w) {
					t.Errorf("Beyond = %q, want it to say %q", got, w)
				}
			}
		})
	}
	// Tables of one node say nothing of the network: beyond them the line
	// asks for the NICs instead.
	var one []predict.Table
	for _, tb := range pm.Tables {
		if tb.Nodes == 1 {
			one = append(one, tb)
		}
	}
	m1, err := predict.Calibrate(pm.Hardware, one, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m1.Beyond(predict.Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8})
	if err != nil || len(got) != 1 || !strings.Contains(got[0], "no table crossed the network") || !strings.Contains(got[0], "-hw nics=N,nic-bw=RATE") {
		t.Errorf("2 x 8 from one-node tables: Beyond = %q, %v; want the NICs asked for", got, err)
	}

	// On GB300 NVL72 racks, a node of the model is a rack's NVLink domain of
	// up to 18 hosts; Beyond still counts hosts: 128 hosts of 4 GPUs are
	// log2(128/32) = 2 doublings beyond the tables' 1 to 32 hosts.
	for _, gm := range pairedMachines(t) {
		if gm.Name != "gb300-nvl72" {
			continue
		}
		g, err := predict.Calibrate(gm.Hardware, gm.Tables, &predict.Settings{NoIntervals: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Beyond(predict.Query{Collective: commmodel.AllReduce, Ranks: 512, PerNode: 4})
		if err != nil || len(got) != 1 || !strings.Contains(got[0], "128 nodes is 2.0 doublings beyond the tables' 1 to 32") {
			t.Errorf("GB300, 128 x 4: Beyond = %q, %v; want 128 hosts against the tables' 1 to 32", got, err)
		}
	}

	none, err := predict.Uncalibrated(pm.Hardware).Beyond(within)
	if err != nil || none != nil {
		t.Errorf("Uncalibrated: Beyond = %q, %v; want nothing: the prior's interval throughout", none, err)
	}
}
