package predict

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
)

// Pins are what a run set that its log may not print, for a Table: each
// non-zero field overrides what the log says.
type Pins struct {
	// Algo and Proto are NCCL_ALGO and NCCL_PROTO as the run set them
	// ("ring", "^NVLS", "LL128"); "" and "auto" mean the tuner chose.
	Algo, Proto string
	// Version is the NCCL release.
	Version nccl.Version
	// Collective replaces the collective the log names or its table
	// implies.
	Collective string
	// Ranks replaces the rank count, for a table whose rows alone do not
	// give it.
	Ranks int
	// Nodes and PerNode are the hosts and GPUs per host.
	Nodes, PerNode int
	// Hosts are the predicted runs' shapes, whose hosts a table takes where
	// its log gives its ranks but not its hosts, and neither Nodes nor
	// PerNode is pinned, as a user's runs of one machine share its hosts:
	// the shape of as many ranks as the table first, else the most GPUs a
	// host among them that fits; a shape of no node count (Nodes 0), the
	// machine's hosts, which a table is taken to fill, comes before them
	// all. A count fits where it divides the ranks
	// (a table of fewer ranks is one host of them) and agrees with what
	// the log shows of the hosts: the Rank lines it keeps, and the GPUs one
	// process drives, which share a host. The assumption is said among the
	// problems.
	Hosts []Comm
	// HostsFrom says where Hosts come from when they are not the predicted
	// runs' shapes (a command that studies a log has none), or where the
	// machine's hosts among them (no node count) come from: a clause the
	// note gives as its reason, such as "-hw gives hosts of 8 GPUs".
	HostsFrom string
	// Layout replaces the header's threads, GPUs per thread and graphs,
	// field by field (NoGraphs: none).
	Layout
	// GPU replaces the Rank lines' GPU name.
	GPU string
	// SystemGPU names the GPU of a table whose Rank lines name none, where
	// the user named the system (a catalog entry that names its GPU); GPU,
	// when given, comes first.
	SystemGPU string
}

// CheckShape reports pins whose Ranks, Nodes and PerNode disagree with one
// another (nodes=1, per-node=8 and ranks=16), which no table can take:
// each is the user's, and none says which of them is wrong.
func (p Pins) CheckShape() error {
	switch {
	case p.Ranks > 0 && p.Nodes > 0 && p.PerNode > 0 && p.Nodes*p.PerNode != p.Ranks:
		return fmt.Errorf("nodes=%d and per-node=%d make %d ranks, where ranks=%d is given: give two of them", p.Nodes, p.PerNode, p.Nodes*p.PerNode, p.Ranks)
	case p.Ranks > 0 && p.PerNode > 0 && p.Ranks%p.PerNode != 0:
		return fmt.Errorf("ranks=%d are not a multiple of per-node=%d: give per-node=G that divides them", p.Ranks, p.PerNode)
	case p.Ranks > 0 && p.Nodes > 0 && p.Ranks%p.Nodes != 0:
		return fmt.Errorf("ranks=%d do not divide among nodes=%d: give nodes=N that divides them", p.Ranks, p.Nodes)
	}
	return nil
}

// ReadFile reads the nccl-tests log at path and returns its Tables as
// TablesOf does, with the reader's problems first. The error is the
// reader's, for a file it cannot read at all.
func ReadFile(path string, pins func(test int) Pins) ([]Table, []error, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return ReadBytes(b, path, pins)
}

// ReadBytes is ReadFile on a log's text b, named name in problems and
// table names: a log embedded in a program, or read from elsewhere.
func ReadBytes(b []byte, name string, pins func(test int) Pins) ([]Table, []error, error) {
	r := nccltests.NewReader(strings.NewReader(string(b)))
	r.Name = name
	tests, err := r.ReadAll()
	if err != nil {
		return nil, nil, err
	}
	tabs, problems := TablesOf(tests, name, pins)
	return tabs, append(Unsettled(r.Problems(), tests, pins), problems...), nil
}

// Unsettled returns problems, the reader's of tests, but those the pins
// settle: its warnings that a test's process is taken as one thread
// (nccltests.ErrUnsplit) where the pins split it, threads=T or g=G, which
// TablesOf completes or refuses. A caller that reads a log itself and
// builds its tables with TablesOf passes the reader's problems through it,
// as ReadBytes does.
func Unsettled(problems []error, tests []*nccltests.Test, pins func(test int) Pins) []error {
	if pins == nil {
		return problems
	}
	return slices.DeleteFunc(slices.Clone(problems), func(e error) bool {
		var pe *nccltests.ParseError
		if !errors.Is(e, nccltests.ErrUnsplit) || !errors.As(e, &pe) {
			return false
		}
		// The test is the last that starts at or before the warning.
		i := sort.Search(len(tests), func(i int) bool { return tests[i].Line > pe.Line }) - 1
		return i >= 0 && (pins(i).ThreadsPerProcess > 0 || pins(i).GPUsPerThread > 0)
	})
}

// A LeftOutError says why TablesOf left out the test of index Test in its
// file.
type LeftOutError struct {
	Test int
	Err  error
}

func (e *LeftOutError) Error() string { return fmt.Sprintf("%v (test %d)", e.Err, e.Test) }

func (e *LeftOutError) Unwrap() error { return e.Err }

// UnnamedGPU is a Table's GPU where its log names none: Describe takes it
// as a GPU the catalog does not hold, every fact assumed.
const UnnamedGPU = "unnamed GPU"

// TablesOf returns a Table for every test of tests, read from the text b of
// the file name, whose collective the model predicts, named "file#index"
// after its place in the file. It takes the run's layout from the test's
// header and Rank lines (layoutOf), and from the lines of b before the
// test's first row the NCCL version and NCCL_ALGO/NCCL_PROTO when NCCL
// printed them, and the node count from NCCL's debug lines where the Rank
// lines elide hosts; pins(i), when pins is not nil, overrides them for
// test i. A test without a known collective (sendrecv, reduce) or node
// count, or without a sized row, is left out with a problem, a
// *nccltests.ParseError at the test's line wrapping a *LeftOutError; a test whose Rank lines name
// no GPU, and whose pins name none either, is kept with UnnamedGPU and a
// problem.
func TablesOf(tests []*nccltests.Test, name string, pins func(test int) Pins) ([]Table, []error) {
	var out []Table
	var problems []error
	for i, t := range tests {
		var pin Pins
		if pins != nil {
			pin = pins(i)
		}
		tab, assumed, err := tableOf(t, pin)
		if err != nil {
			problems = append(problems, &nccltests.ParseError{File: name, Line: t.Line, Err: &LeftOutError{Test: i, Err: err}})
			continue
		}
		if line, err := envPinsUnread(t, pin, &tab); err != nil {
			problems = append(problems, &nccltests.ParseError{File: name, Line: line, Err: &LeftOutError{Test: i, Err: err}})
			continue
		}
		tab.Name = fmt.Sprintf("%s#%d", filepath.Base(name), i)
		if line, msg := nvlsPinnedOff(t, pin, &tab); msg != "" {
			problems = append(problems, &nccltests.ParseError{File: name, Line: line, Err: fmt.Errorf("%s: %s", tab.Collective, msg)})
		}
		if assumed != "" {
			problems = append(problems, &nccltests.ParseError{File: name, Line: t.Line,
				Err: fmt.Errorf("%s: %s", tab.Collective, assumed)})
		}
		if msg := pinsAgainstHosts(t, pin, tab); msg != "" {
			problems = append(problems, &nccltests.ParseError{File: name, Line: t.Line,
				Err: fmt.Errorf("%s: %s", tab.Collective, msg)})
		}
		if key, word := namedPin(name); key != "" && pin.Algo == "" && pin.Proto == "" && tab.Algo == "" && tab.Proto == "" {
			problems = append(problems, &nccltests.ParseError{File: name, Line: t.Line,
				Err: fmt.Errorf("%s: the file's name says %s, but neither the log nor a pin sets NCCL_%s: the table is taken as NCCL's own choice; if the run set it, give FILE:%s=%s (FILE:%s=auto keeps NCCL's choice and this note quiet)",
					tab.Collective, word, strings.ToUpper(key), key, word, key)})
		}
		if pin.GPU != "" && t.System != "" {
			if replaced, known := replacesLogGPU(pin.GPU, t.System); replaced {
				problems = append(problems, &nccltests.ParseError{File: name, Line: t.Line,
					Err: fmt.Errorf("%s: the Rank lines name the GPU %q, and the name given, %q, replaces it: the model takes that GPU's facts, not the log's; leave -gpu (or gpu=NAME) out to take the log's", tab.Collective, t.System, pin.GPU)})
			} else if !known && !strings.EqualFold(strings.TrimSpace(pin.GPU), strings.TrimSpace(t.System)) {
				problems = append(problems, &nccltests.ParseError{File: name, Line: t.Line,
					Err: fmt.Errorf("%s: the Rank lines name the GPU %q, which commlab's catalog does not hold: the name given, %q, stands for it", tab.Collective, t.System, pin.GPU)})
			}
		}
		if tab.GPU == UnnamedGPU {
			problems = append(problems, &nccltests.ParseError{File: name, Line: t.Line,
				Err: fmt.Errorf("%s: %s: a GPU the catalog does not hold is assumed, every fact of it; give gpu=NAME to name it", tab.Collective, noGPUName(t))})
		}
		if d := sharedGPU(t); d != nil {
			problems = append(problems, &nccltests.ParseError{File: name, Line: d.Line,
				Err: fmt.Errorf("%s: rank %d runs on the GPU of an earlier rank (%s on %s): ranks that share a GPU time no link between GPUs, and the model, which takes one rank a GPU, misreads the table", tab.Collective, d.Rank, d.BusID, d.Host)})
		}
		out = append(out, tab)
	}
	return out, problems
}

// envPinsUnread returns the line of t's log whose NCCL_ALGO or NCCL_PROTO,
// taken for tab where no pin replaces it (FILE:algo=, FILE:proto=), NCCL's
// model of the table's release does not read (nccl.CheckEnableAt: an
// unknown name from NCCL 2.24, a per-function list before it), and why,
// naming the key that replaces it. Such a table cannot be modelled,
// while the other tables of its file and of the other files can: the
// table is left out, as a table whose pins NCCL would refuse.
func envPinsUnread(t *nccltests.Test, pin Pins, tab *Table) (int, error) {
	v, _, _ := versionOf(tab.Version)
	for _, c := range []struct {
		key, env string
		set      nccltests.Fact[string]
		given    string
		algo     string
		proto    string
	}{
		{"algo", "NCCL_ALGO", t.Evidence.Algo, pin.Algo, tab.Algo, ""},
		{"proto", "NCCL_PROTO", t.Evidence.Proto, pin.Proto, "", tab.Proto},
	} {
		if !c.set.Known() || c.given != "" {
			continue
		}
		err := nccl.CheckEnableAt(v, nccl.AlgoListAt(tab.Version, v, c.algo), c.proto)
		if err == nil {
			continue
		}
		if inner := errors.Unwrap(err); inner != nil {
			err = inner // without "nccl: NCCL_ALGO=...", said here
		}
		what := "algorithm the run used (ring, tree, nvls, ...)"
		if c.key == "proto" {
			what = "protocol the run used (ll, ll128 or simple)"
		}
		return c.set.Line, fmt.Errorf("%s: %s set by environment to %q, which NCCL %v's tuner does not read as the model follows it: %v; the table is left out: give FILE:%s=NAME|auto, the %s, or auto for NCCL's own choice",
			tab.Collective, c.env, c.set.Value, v, err, c.key, what)
	}
	return 0, nil
}

// nvlsPinnedOff says where t's log sets NCCL_NVLS_ENABLE=0 and an
// NCCL_ALGO that leaves only NVLS and NVLSTree (withoutNVLS keeps such a
// list as given): NCCL sets up no NVLS under the setting (ncclNvlsInit,
// src/transport/nvls.cc, returns before it), so the pin and the setting
// conflict, and the table, modelled with the pin, rests on algorithms
// the run could not have run. It returns the setting's line and the
// words, "" where they agree or a pin (FILE:algo=) or NCCL's TUNING lines
// replace the log's NCCL_ALGO.
func nvlsPinnedOff(t *nccltests.Test, pin Pins, tab *Table) (int, string) {
	e := &t.Evidence
	off, ok := e.Off("NCCL_NVLS_ENABLE")
	if !ok || pin.Algo != "" || !e.Algo.Known() || tab.Algo != e.Algo.Value || withoutNVLS(tab.Algo) != tab.Algo || strings.HasPrefix(tab.Algo, "^") || strings.Contains(tab.Algo, ":") {
		return 0, ""
	}
	return off.Line, fmt.Sprintf("%s=%s sets up no NVLS (NCCL's src/transport/nvls.cc), yet NCCL_ALGO=%s (line %d) leaves only NVLS and NVLSTree: the log contradicts itself, and the table is modelled with %s as NCCL_ALGO gives it; give FILE:algo=NAME|auto, the algorithm the run used, if it ran another",
		off.Name, off.Value, e.Algo.Value, e.Algo.Line, e.Algo.Value)
}

// pinsAgainstHosts says where the shape the pins gave tab (nodes=N,
// per-node=G) contradicts what t's Rank lines show of the hosts: more
// hosts named than nodes, or more ranks on a host than G; and where the
// lines list some ranks only, ranks placed neither as a launcher that
// fills the nodes in rank order does (rank r on node r/G) nor as one that
// deals its processes of P GPUs to them in turn does (r/P mod N), each
// rule held to over every host. The pins stand (containers may share a
// host name, a launcher place ranks otherwise, a log be another run's),
// but not without a word; "" where they agree or set no shape.
func pinsAgainstHosts(t *nccltests.Test, pin Pins, tab Table) string {
	if pin.Nodes == 0 && pin.PerNode == 0 || tab.Nodes < 1 || tab.PerNode < 1 {
		return ""
	}
	given := pinKeys(pinKey{"nodes", pin.Nodes}, pinKey{"per-node", pin.PerNode})
	taken := fmt.Sprintf("the table is taken as %d nodes of %s, as given; give the shape the Rank lines show if they are right", tab.Nodes, counted(tab.PerNode, "GPU"))
	if len(t.Hosts) > tab.Nodes {
		return fmt.Sprintf("%s, but the Rank lines name %d hosts: %s", given, len(t.Hosts), taken)
	}
	// The ranks the lines put on each host, each once, hosts in the
	// lines' order.
	var hosts []string
	ranks := map[string][]int{}
	listed := map[int]bool{}
	for _, d := range t.Evidence.Devices {
		if d.Host == "" || listed[d.Rank] {
			continue
		}
		listed[d.Rank] = true
		if _, ok := ranks[d.Host]; !ok {
			hosts = append(hosts, d.Host)
		}
		ranks[d.Host] = append(ranks[d.Host], d.Rank)
	}
	for _, h := range hosts {
		if n := len(ranks[h]); n > tab.PerNode {
			return fmt.Sprintf("%s, but the Rank lines put %d ranks on host %s, more than a node's %d: %s", given, n, h, tab.PerNode, taken)
		}
	}
	if len(listed) == t.Ranks {
		return "" // every rank on its host, within the counts: any placement (Slurm's plane=2) is the launcher's
	}
	// apart returns a host and two of its ranks that a placement (node of
	// rank r) puts on different nodes, "" where it puts none so.
	apart := func(node func(r int) int) (string, int, int) {
		for _, h := range hosts {
			rs := ranks[h]
			for _, r := range rs[1:] {
				if node(r) != node(rs[0]) {
					return h, rs[0], r
				}
			}
		}
		return "", 0, 0
	}
	l := tab.Layout.norm()
	proc := l.ThreadsPerProcess * l.GPUsPerThread // a process's ranks share its host
	h1, a1, b1 := apart(func(r int) int { return r / tab.PerNode })
	h2, a2, b2 := apart(func(r int) int { return r / proc % tab.Nodes })
	if h1 == "" || h2 == "" {
		return ""
	}
	return fmt.Sprintf("%s, but the Rank lines place the ranks neither in rank order (ranks %d and %d share host %s, which that order puts on nodes apart) nor with processes dealt to the nodes in turn (ranks %d and %d share host %s): %s",
		given, a1, b1, h1, a2, b2, h2, taken)
}

// A pinKey is a count a log's key gives, as "nodes=2" names it.
type pinKey struct {
	key string
	n   int
}

// pinKeys names the keys of keys that are given (non-zero), joined by
// "and" ("nodes=2 and per-node=8", "threads=8").
func pinKeys(keys ...pinKey) string {
	var out []string
	for _, k := range keys {
		if k.n > 0 {
			out = append(out, fmt.Sprintf("%s=%d", k.key, k.n))
		}
	}
	return strings.Join(out, " and ")
}

// replacesLogGPU reports whether the name given replaces another GPU than
// the one a log's Rank lines name: both of the catalog and different, or
// the log's of the catalog and the given name another one. A log's name
// the catalog does not hold ("NVIDIA Graphics Device") is what -gpu names.
// known reports that the catalog holds the log's.
func replacesLogGPU(given, logged string) (replaced, known bool) {
	gl, errL := nccl.ParseGPU(logged)
	if errL != nil {
		return false, false
	}
	gg, errG := nccl.ParseGPU(given)
	return errG != nil || gg.Name != gl.Name, true
}

// namedPin returns the first word of the file name's base (words split at
// anything but letters and digits) that names an NCCL algorithm (key
// "algo"), "collnet" among them (both CollNets, as algo=collnet takes it),
// or a protocol ("proto"), as users name the logs of pinned runs
// ("all_reduce_ring.log", AICR's "allreduce_collnet_sharp"); "" where none
// does.
func namedPin(name string) (key, word string) {
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	words := strings.FieldsFunc(strings.ToLower(base), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		if _, err := nccl.ParseAlgo(w); err == nil || w == "collnet" {
			return "algo", w
		}
		if _, err := commmodel.ParseProtocol(w); err == nil {
			return "proto", w
		}
	}
	return "", ""
}

// sharedGPU returns the first Rank line of t whose GPU an earlier rank's
// line names too, the same host, device and PCI bus ID, nil where every rank has
// a GPU of its own or the lines print no bus ID or host.
func sharedGPU(t *nccltests.Test) *nccltests.Device {
	seen := map[[2]string]bool{}
	for i := range t.Evidence.Devices {
		d := &t.Evidence.Devices[i]
		if d.BusID == "" || d.Host == "" {
			return nil // no bus IDs, or ranks not placed on hosts
		}
		// Old formats print a bus number alone ([0x10]), which GPUs of a
		// switch can share: the device index must match too.
		key := [2]string{d.Host, fmt.Sprintf("%d %s", d.Device, strings.ToLower(d.BusID))}
		if seen[key] {
			return d
		}
		seen[key] = true
	}
	return nil
}

// tableOf builds the table of t with the pins, and says what it assumed
// of the run's hosts (Pins.Hosts), "" for nothing.
func tableOf(t *nccltests.Test, pin Pins) (Table, string, error) {
	// The pins' threads and GPUs a thread, completed where the log gives
	// the GPUs a process, come before the hosts they must fit.
	if err := pin.splitProcess(t); err != nil {
		return Table{GPU: t.System, Evidence: t.Evidence}, "", err
	}
	// The log gives hosts where LogNodes takes a count from it: under
	// MNNVL nNodes counts NVLink cliques, not hosts, and such a log falls
	// to the hosts assumed below as one without the comm line does.
	if LogNodes(t) > 0 || pin.Nodes > 0 || pin.PerNode > 0 {
		tab, err := pin.tableOf(t)
		return tab, "", err
	}
	ranks := t.Ranks
	if pin.Ranks > 0 {
		ranks = pin.Ranks
	}
	if g, from := hostsOf(t, pin, ranks); g > 0 {
		pin.PerNode = g
		tab, err := pin.tableOf(t)
		tab.ShapeFrom = SourceAssumed
		gpus := fmt.Sprintf("%d GPUs", g)
		if g == 1 {
			gpus = "1 GPU"
		}
		shape := fmt.Sprintf("%d nodes of %s are", ranks/g, gpus)
		if ranks == g {
			shape = fmt.Sprintf("one node of %s is", gpus)
		}
		return tab, fmt.Sprintf("node count unknown (%s): %s assumed, as %s; give FILE:nodes=N or FILE:per-node=G if the run was laid out otherwise",
			noHosts(t), shape, from), err
	}
	tab, err := pin.tableOf(t)
	if errors.Is(err, errNodesUnknown) && pin.HostsFrom != "" && ranks > 0 {
		// The hosts the caller gave (a capture's, -hw's) do not fit the
		// table: say whose they were. A table that does not give its
		// ranks fits no hosts, whoever gave them.
		err = fmt.Errorf("%w; %s, and hosts of that many do not hold its %d ranks", err, pin.HostsFrom, ranks)
	}
	return tab, "", err
}

// LogNodes returns the node count a table of t takes from its log, 0
// where the log gives none: the hosts its Rank lines name (Test.Nodes),
// else NCCL's "nNodes" (Evidence.Nodes) where the Rank lines elide the
// hosts, unless the run was MNNVL, whose nNodes counts NVLink domains
// (runDomains), not hosts. Pins (nodes=N) come before it.
func LogNodes(t *nccltests.Test) int {
	if t.Nodes > 0 {
		return t.Nodes
	}
	if n := t.Evidence.Nodes; n.Known() && n.Value > 0 && !t.Evidence.MNNVL.Value {
		return n.Value
	}
	return 0
}

// errNodesUnknown: a table whose log does not place its ranks on hosts,
// and nothing else does.
var errNodesUnknown = errors.New("node count unknown")

// hostsFor returns the GPUs a host to try for a table of ranks ranks, in
// order (Pins.Hosts): the machine's hosts (shapes of no node count), those
// of the shapes of as many ranks, then every shape's, the most first.
func hostsFor(shapes []Comm, ranks int) []int {
	var machine, first, rest []int
	for _, c := range shapes {
		switch {
		case c.Nodes == 0:
			machine = append(machine, c.PerNode)
		case c.Nodes*c.PerNode == ranks:
			first = append(first, c.PerNode)
		}
		rest = append(rest, c.PerNode)
	}
	slices.Sort(rest)
	slices.Reverse(rest)
	return append(append(machine, first...), rest...)
}

// fitsHosts reports whether ranks of t on hosts of g GPUs each agree with
// what t's log shows of its hosts: g divides the ranks, a host holds whole
// processes (the header's threads times GPUs per thread, pins first), and
// the Rank lines it keeps put no more ranks on a host than g nor name more
// hosts than the ranks fill.
func fitsHosts(t *nccltests.Test, pin Pins, ranks, g int) bool {
	l := pin.Layout.over(layoutOf(t)).norm()
	if ranks%g != 0 || g%(l.ThreadsPerProcess*l.GPUsPerThread) != 0 || len(t.Hosts) > ranks/g {
		return false
	}
	seen := map[string]map[int]bool{}
	for _, d := range t.Evidence.Devices {
		if seen[d.Host] == nil {
			seen[d.Host] = map[int]bool{}
		}
		if seen[d.Host][d.Rank] = true; len(seen[d.Host]) > g {
			return false
		}
	}
	return true
}

// hostsOf returns the GPUs a host to take for ranks of t, whose log does
// not place them on hosts, and why; 0 for none. It takes the first of the
// prediction's counts (Pins.Hosts) that the Rank lines the log keeps fit
// with every rank on its device (blockPlaced), then the one count those
// devices give (devicesGive), then the first of the prediction's that the
// Rank lines fit but for their devices (a launcher that placed ranks out of
// order).
func hostsOf(t *nccltests.Test, pin Pins, ranks int) (int, string) {
	predicted := func(block bool) (int, string) {
		for _, want := range hostsFor(pin.Hosts, ranks) {
			if g := min(want, ranks); g >= 1 && fitsHosts(t, pin, ranks, g) && (!block || blockPlaced(t, g)) {
				// HostsFrom is the machine's hosts' reason where the
				// shapes hold them (no node count), else every shape's.
				machine := slices.IndexFunc(pin.Hosts, func(c Comm) bool { return c.Nodes == 0 })
				if pin.HostsFrom != "" && (machine < 0 || want == pin.Hosts[machine].PerNode) {
					return g, pin.HostsFrom
				}
				return g, fmt.Sprintf("the predicted runs' nodes hold %d", want)
			}
		}
		return 0, ""
	}
	if g, from := predicted(true); g > 0 {
		return g, from
	}
	if g, d := devicesGive(t, pin, ranks); g > 0 {
		return g, fmt.Sprintf("the Rank lines put rank %d on device %d, where nccl-tests puts it on hosts of %d GPUs (rank r on device r mod %[3]d)", d.Rank, d.Device, g)
	}
	return predicted(false)
}

// blockPlaced reports whether the Rank lines t keeps put each rank on the
// device nccl-tests gives it when g ranks share a host in rank order (the
// MPI launchers' default, and a single process's own GPUs): cudaDev =
// localRank·threads·GPUs + thread·GPUs + i (nccl-tests src/common.cu),
// which is rank mod g.
func blockPlaced(t *nccltests.Test, g int) bool {
	for _, d := range t.Evidence.Devices {
		if d.Device != d.Rank%g {
			return false
		}
	}
	return true
}

// devicesGive returns the one count of GPUs a host, and a Rank line that
// shows it, that t's Rank lines fit (fitsHosts) with every rank on its
// device under block placement (blockPlaced), where some line puts a rank
// on a device other than its rank and other than 0; 0 where no count or
// several do. GB300's log shows ranks 62 and 63 of 64 on devices 2 and 3:
// 4 GPUs a host, not 8. Device 0 says nothing: a launcher that shows each
// process its own GPU alone puts every rank on device 0.
func devicesGive(t *nccltests.Test, pin Pins, ranks int) (int, nccltests.Device) {
	i := slices.IndexFunc(t.Evidence.Devices, func(d nccltests.Device) bool { return d.Device != d.Rank && d.Device > 0 })
	if i < 0 || ranks < 1 {
		return 0, nccltests.Device{}
	}
	found := 0
	for g := 1; g <= ranks; g++ {
		if ranks%g == 0 && fitsHosts(t, pin, ranks, g) && blockPlaced(t, g) {
			if found > 0 {
				return 0, nccltests.Device{}
			}
			found = g
		}
	}
	return found, t.Evidence.Devices[i]
}

// noHosts says why t's log does not give its node count.
func noHosts(t *nccltests.Test) string {
	switch {
	case len(t.Evidence.Devices) == 0:
		return "no Rank line names the hosts"
	case len(t.Hosts) == 0:
		return "the Rank lines name no host"
	case len(t.Evidence.Devices) < t.Ranks:
		return fmt.Sprintf("the Rank lines show %d of the %d ranks, on %s, and not where the others ran", len(t.Evidence.Devices), t.Ranks, counted(len(t.Hosts), "host"))
	}
	return "the Rank lines do not name every host"
}

// noGPUName says why t's log names no GPU.
func noGPUName(t *nccltests.Test) string {
	if len(t.Evidence.Devices) == 0 {
		return "no Rank line names the GPU"
	}
	return "no GPU name in the Rank lines"
}

// tableOf builds the table of t with the pins; a table whose node count
// neither its log nor the pins give is an error.
func (pin Pins) tableOf(t *nccltests.Test) (Table, error) {
	tab := Table{GPU: t.System, Nodes: t.Nodes, Layout: layoutOf(t), Evidence: t.Evidence, GPUFrom: SourceLog, ShapeFrom: SourceLog, CollectiveFrom: SourceLog}
	if err := pin.CheckShape(); err != nil {
		return tab, err
	}
	readEvidence(&tab, &t.Evidence)
	pin.apply(&tab)
	if pin.Nodes > 0 || pin.PerNode > 0 || pin.Ranks > 0 {
		tab.ShapeFrom = SourceUser
	}
	name := t.Collective.String()
	if t.CollectiveFrom == nccltests.FromGuess {
		tab.CollectiveFrom = SourceAssumed
	}
	switch {
	case pin.Collective != "":
		name, tab.CollectiveFrom = pin.Collective, SourceUser
	case t.CollectiveFrom == nccltests.Unknown && t.Op != "" && t.Name == "":
		return tab, fmt.Errorf("the table's columns fit %s alone, which the model does not predict: its table is left out; give collective=NAME if it ran one", t.Op)
	case t.CollectiveFrom == nccltests.Unknown && t.Op != "":
		return tab, fmt.Errorf("%s_perf is not a collective the model predicts: its table is left out", t.Op)
	case t.CollectiveFrom == nccltests.Unknown:
		return tab, fmt.Errorf("the table's operation is unknown: the log names no binary and its columns fit no collective the model predicts; give collective=NAME if it ran one")
	}
	c, err := commmodel.ParseCollective(name)
	if err != nil {
		return tab, err
	}
	tab.Collective = c
	ranks := t.Ranks
	if pin.Ranks > 0 {
		if t.RanksFrom == nccltests.FromRankLines && t.NodesFrom == nccltests.FromHosts && pin.Ranks != t.Ranks {
			// Every rank listed, on its host: the run's ranks are known.
			return tab, fmt.Errorf("%s: ranks=%d, but the Rank lines list %d ranks on %s: the table is left out; give ranks=%d, or none",
				tab.Collective, pin.Ranks, t.Ranks, counted(t.Nodes, "host"), t.Ranks)
		}
		ranks = pin.Ranks
	}
	if pin.Nodes == 0 {
		tab.Nodes = LogNodes(t)
	}
	if tab.Nodes < 1 && pin.PerNode > 0 && ranks > 0 {
		if ranks%pin.PerNode != 0 {
			return tab, fmt.Errorf("%s: the table's %d ranks are not a multiple of per-node=%d: the table is left out; give per-node=G that divides them, or nodes=N", tab.Collective, ranks, pin.PerNode)
		}
		tab.Nodes = ranks / pin.PerNode // the ranks the table gives, over the GPUs a node the user gave
	}
	if tab.Nodes < 1 {
		give := "give nodes=N, or per-node=G, as the table gives its ranks"
		if ranks < 1 {
			give = "give nodes=N and per-node=G, or ranks=N with one of them, as the table does not give its ranks"
		}
		return tab, fmt.Errorf("%s: %w (%s): the table is left out; %s (FILE:test=K:KEY=VALUE for one test)", tab.Collective, errNodesUnknown, noHosts(t), give)
	}
	if tab.GPU == "" {
		tab.GPU, tab.GPUFrom = pin.SystemGPU, SourceUser
	}
	if tab.GPU == "" {
		tab.GPU, tab.GPUFrom = UnnamedGPU, SourceAssumed // an unknown GPU, its facts assumed; TablesOf warns
	}
	tab.PerNode = pin.PerNode
	if tab.PerNode > 0 && t.Ranks > 0 && pin.Ranks == 0 && tab.Nodes*tab.PerNode != t.Ranks {
		return tab, fmt.Errorf("%s: %d nodes of per-node=%d make %d ranks, but the table gives %d: the table is left out; give the shape it ran", tab.Collective, tab.Nodes, tab.PerNode, tab.Nodes*tab.PerNode, t.Ranks)
	}
	if tab.PerNode == 0 {
		if ranks < 1 || ranks%tab.Nodes != 0 {
			nodes := fmt.Sprintf("%d nodes", tab.Nodes)
			if pin.Nodes > 0 {
				nodes = fmt.Sprintf("nodes=%d", pin.Nodes)
			}
			if ranks < 1 {
				return tab, fmt.Errorf("%s: the table gives no rank count to spread on %s: the table is left out; give ranks=N or per-node=G", tab.Collective, nodes)
			}
			return tab, fmt.Errorf("%s: the table's %d ranks do not divide among %s: the table is left out; give nodes=N that divides them, or per-node=G", tab.Collective, ranks, nodes)
		}
		tab.PerNode = ranks / tab.Nodes
	}
	if tab.Ranks() == 1 {
		return tab, fmt.Errorf("%s: a table of one rank exchanges nothing (NCCL copies the buffer locally): the table is left out", tab.Collective)
	}
	if l := tab.Layout.norm(); tab.PerNode%(l.ThreadsPerProcess*l.GPUsPerThread) != 0 {
		fix := fmt.Sprintf("give per-node=%d or a multiple", l.ThreadsPerProcess*l.GPUsPerThread)
		if t.NodesFrom == nccltests.FromHosts {
			// The Rank lines place the ranks: the layout is what is off.
			fix = fmt.Sprintf("the Rank lines put %s on a node: give g=G and threads=T whose product divides %d (g=1 for a process a GPU)", counted(tab.PerNode, "GPU"), tab.PerNode)
			if tab.PerNode == 1 {
				fix = "the Rank lines put 1 GPU on a node: give g=1 and threads=1"
			}
		}
		return tab, fmt.Errorf("%s: %s a node, but one process drives %d (nccl-tests -t %d -g %d), which share a host: the table is left out; %s",
			tab.Collective, counted(tab.PerNode, "GPU"), l.ThreadsPerProcess*l.GPUsPerThread, l.ThreadsPerProcess, l.GPUsPerThread, fix)
	}
	for _, r := range t.Rows {
		if r.Size > 0 && r.OutOfPlace.OK() {
			p := Point{Size: float64(r.Size), Time: r.OutOfPlace.Time}
			if r.InPlace.OK() {
				p.InPlace = r.InPlace.Time
			}
			tab.Points = append(tab.Points, p)
		}
	}
	if len(tab.Points) == 0 {
		return tab, fmt.Errorf("%s: no row with a size and an out-of-place time", tab.Collective)
	}
	return tab, nil
}

// readEvidence sets what the log says of the run beside its table: the
// NCCL version (NCCL's "NCCL version" line, else nccl-tests' nccl-library
// or rccl-tests' rccl-library)
// and NCCL_ALGO and NCCL_PROTO where the environment set them, else where
// NCCL's TUNING lines name one algorithm (protocol) for every call.
func readEvidence(tab *Table, e *nccltests.Evidence) {
	if v := e.Release(); v != (nccl.Version{}) {
		tab.Version, tab.VersionFrom = v, SourceLog
		if w, err := nccl.ParseVersion(e.NCCLVersion.Value); err == nil && w == v {
			tab.VersionFrom = SourceNCCLDebug
		}
	}
	if e.Algo.Known() {
		tab.Algo = e.Algo.Value
	}
	if e.Proto.Known() {
		tab.Proto = e.Proto.Value
	}
	// What NCCL's TUNING lines say it ran at every size pins the table as
	// NCCL_ALGO and NCCL_PROTO would.
	// (NCCL's debug names, NVLS_TREE, drop NCCL_ALGO's spelling's "_".)
	// CollNet, which needs a plugin's collectives the model does not
	// describe, is left to the tuner.
	a, err := nccl.ParseAlgo(strings.ReplaceAll(e.RanAlgo.Value, "_", ""))
	collNet := err == nil && a.CollNet()
	ran := tab.Algo == "" && e.RanAlgo.Known() && err == nil && !collNet
	if ran {
		tab.Algo = a.String()
	}
	if p, err := commmodel.ParseProtocol(e.RanProto.Value); tab.Proto == "" && e.RanProto.Known() && err == nil && !collNet {
		tab.Proto = nccl.ProtocolName(p)
	}
	// NCCL_NVLS_ENABLE=0 sets up no NVLS on the communicator
	// (src/transport/nvls.cc, ncclNvlsInit returns before it): neither NVLS
	// nor NVLSTree runs, whatever the hosts support or NCCL_ALGO lists.
	// What the TUNING lines say ran says more.
	if _, off := e.Off("NCCL_NVLS_ENABLE"); off && !ran {
		tab.Algo = withoutNVLS(tab.Algo)
	}
}

// withoutNVLS returns the NCCL_ALGO setting algo with NVLS and NVLSTree
// left out, as a run under NCCL_NVLS_ENABLE=0 runs it: every algorithm but
// them where algo is unset, an exclusion list with them added, and a list
// of algorithms without them (a list of them alone, or NCCL 2.24's
// per-collective lists, as given: NCCL fails or falls back on such a run
// in ways the setting's own line does not say).
func withoutNVLS(algo string) string {
	nvls := func(name string) bool {
		return strings.EqualFold(name, "NVLS") || strings.EqualFold(name, "NVLSTree")
	}
	switch {
	case strings.Contains(algo, ":"):
		return algo
	case algo == "":
		return "^NVLS,NVLSTree"
	case strings.HasPrefix(algo, "^"):
		names := strings.Split(algo[1:], ",")
		for _, n := range []string{"NVLS", "NVLSTree"} {
			if !slices.ContainsFunc(names, func(m string) bool { return strings.EqualFold(strings.TrimSpace(m), n) }) {
				names = append(names, n)
			}
		}
		return "^" + strings.Join(slices.DeleteFunc(names, func(m string) bool { return strings.TrimSpace(m) == "" }), ",")
	}
	names := slices.DeleteFunc(strings.Split(algo, ","), func(m string) bool { return nvls(strings.TrimSpace(m)) })
	if len(names) == 0 {
		return algo
	}
	return strings.Join(names, ",")
}

// splitProcess completes p's threads or GPUs per thread where t's log
// gives the GPUs a process drives but not how (Test.ProcessGPUs:
// rccl-tests' CSV, taken as one thread of them): threads=T alone makes
// them T threads of the rest, g=G alone G GPUs a thread of as many threads
// as make them up; both must make them up. A split that does not is an
// error.
func (p *Pins) splitProcess(t *nccltests.Test) error {
	per := t.ProcessGPUs
	if per < 1 || p.ThreadsPerProcess == 0 && p.GPUsPerThread == 0 {
		return nil
	}
	th, g := p.ThreadsPerProcess, p.GPUsPerThread
	switch {
	case th > 0 && g == 0 && per%th == 0:
		g = per / th
	case g > 0 && th == 0 && per%g == 0:
		th = per / g
	}
	if th*g != per {
		verb := "does"
		if p.ThreadsPerProcess > 0 && p.GPUsPerThread > 0 {
			verb = "do"
		}
		return fmt.Errorf("%s %s not make up the %s a process that the log gives (rccl-tests' gpusPerRank or gpus): the table is left out; give threads=T, g=G, or both, whose product is %d",
			pinKeys(pinKey{"threads", p.ThreadsPerProcess}, pinKey{"g", p.GPUsPerThread}), verb, counted(per, "GPU"), per)
	}
	p.ThreadsPerProcess, p.GPUsPerThread = th, g
	return nil
}

// apply overrides what tab's log said with p's non-zero fields but
// PerNode, and spells the tuner's choice "".
func (p Pins) apply(tab *Table) {
	if p.Algo != "" {
		tab.Algo = p.Algo
	}
	if p.Proto != "" {
		tab.Proto = p.Proto
	}
	for _, s := range []*string{&tab.Algo, &tab.Proto} {
		if strings.EqualFold(*s, "auto") {
			*s = ""
		}
	}
	if p.Version != (nccl.Version{}) {
		tab.Version, tab.VersionFrom = p.Version, SourceUser
	}
	tab.Layout = p.Layout.over(tab.Layout)
	tab.Graphs = max(tab.Graphs, 0)
	if p.GPU != "" {
		tab.GPU, tab.GPUFrom = p.GPU, SourceUser
	}
	if p.Nodes > 0 {
		tab.Nodes = p.Nodes
	}
}
