package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
)

// The prose of README.md and docs/*.md quotes numbers that commands print
// (an interval's end, a gain, a median error, a count of sizes), beside the
// command or naming it. TestDocs holds the output blocks to what their
// commands print; these tests hold the quotes in the prose the same way.
// Each runs the command the page shows or names and checks that the page
// says what it prints now: where one fails, run the command and correct
// the page.

// docProse returns a page of the repository (README.md, docs/NAME.md) as
// prose to search: a blockquote's "> " and a line's closing hard break
// ("\") dropped, and every run of white space one space.
func docProse(t *testing.T, page string) string {
	t.Helper()
	b, err := os.ReadFile("../../" + page)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		l = strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ")
		lines[i] = strings.TrimSuffix(strings.TrimRight(l, " \t"), `\`)
	}
	return oneLine(strings.Join(lines, "\n"))
}

// oneLine collapses every run of white space in s to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// wantSaid reports each of wants (white space collapsed) that page's prose
// does not say, with the command that prints it.
func wantSaid(t *testing.T, page, prose string, args []string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if w = oneLine(w); !strings.Contains(prose, w) {
			t.Errorf("%s does not say %q, as commlab %s prints it", page, w, strings.Join(args, " "))
		}
	}
}

// runDoc runs a command of a page from this package's directory, its files
// under ../../, and returns what it printed, with the paths as the page
// gives them. It must exit 0.
func runDoc(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	code, out, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("commlab %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return strings.ReplaceAll(out, "../../", ""), strings.ReplaceAll(errOut, "../../", "")
}

// rowOf returns the time, low and high end of a predict table's row for
// size ("1 MiB"), each with its unit.
func rowOf(t *testing.T, out, size string) (time, low, high string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^ *` + regexp.QuoteMeta(size) + ` +(\S+ \S+) +(\S+ \S+) +(\S+ \S+) `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no row of %s in\n%s", size, out)
	}
	return m[1], m[2], m[3]
}

// headerEntry returns the line of a tune file's header for the choice
// that starts with prefix ("broadcast on 8 x 8, "), its wrapped lines
// joined, cut at "; " into its parts: the times and gain at the size, then
// as the tables ran each protocol, then against a measured time, ...
func headerEntry(t *testing.T, file, prefix string) []string {
	t.Helper()
	// A header line and its entries are one line once joined; the entry
	// for prefix runs to its end.
	joined := strings.ReplaceAll(file, "\n#   ", " ")
	i := strings.Index(joined, prefix)
	if i < 0 {
		t.Fatalf("no header line for %q in\n%s", prefix, file)
	}
	line, _, _ := strings.Cut(joined[i:], "\n")
	return strings.Split(line, "; ")
}

// stderrParagraph returns the lines of stderr from the first that starts
// with prefix to the last of the "  with ..." lines after it.
func stderrParagraph(t *testing.T, stderr, prefix string) string {
	t.Helper()
	lines := strings.Split(stderr, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
	if i < 0 {
		t.Fatalf("no line %q in\n%s", prefix, stderr)
	}
	j := i + 1
	for j < len(lines) && strings.HasPrefix(lines[j], "  with ") {
		j++
	}
	return strings.Join(lines[i:j], "\n")
}

// skipShort skips t under -short, the race detector's pass, where one
// calibration of each test stands for the rest.
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: go test without it checks this claim")
	}
}

// TestReadmeGuessClaim: README.md sets the library program's 1 MiB
// interval (its output block, which TestDocs holds) beside the command's
// for the same logs and query, which a guess of the network's latency at
// six times NCCL's widens.
func TestReadmeGuessClaim(t *testing.T) {
	t.Parallel()
	const d = "../../data/logs/paired/h100-sxm-10node-cluster01/"
	args := []string{"predict", "-calibrate", d + "nccl_N1_G8_cnode3-002.log," + d + "nccl_N2_G8_cnode3-002_cnode3-003.log",
		"-collective", "allreduce", "-p", "32", "-per-node", "8", "-size", "1MiB,1GiB"}
	out, _ := runDoc(t, args...)
	if !strings.Contains(out, "guess: net_latency = NCCL's is assumed; with 6x NCCL's the prediction at 1 MiB") {
		t.Errorf("no guess of the network's latency at 6x NCCL's in\n%s", out)
	}
	_, _, high := rowOf(t, out, "1 MiB")
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lib := regexp.MustCompile(`(?m)^1 MiB +\S+ \S+ +80% in \[\S+ \S+, (\S+ \S+)\]`).FindSubmatch(b)
	if lib == nil {
		t.Fatal("README.md: no 1 MiB row in the library program's output")
	}
	wantSaid(t, "README.md", docProse(t, "README.md"), args,
		fmt.Sprintf("the command's 1 MiB interval reaches %s, not %s: the time a network latency six times NCCL's figure would give", high, lib[1]))
}

// TestTuneGuideClaims: docs/tune.md quotes the header lines and the
// standard error of tune on ABCI's A100 tables: the Broadcast rule on 8 x
// 8 at 2 MiB, taken where the facts it rests on are given as assumed and
// withheld where they are left to the model, with what other values of
// those facts do; the 16 x 8 Broadcast at 4 MiB on all twelve logs; and
// the H800 Broadcast the model does not follow.
func TestTuneGuideClaims(t *testing.T) {
	t.Parallel()
	const a = "../../data/logs/paired/a100-sxm4-abci-ib4xhdr/"
	var seven, twelve []string
	for _, f := range []string{"allreduce_1x8", "allreduce_2x8", "allreduce_4x8", "allreduce_8x8", "allreduce_16x8", "broadcast_2x8", "broadcast_8x8"} {
		seven = append(seven, a+f+".log")
	}
	twelve = append(slices.Clone(seven), a+"allreduce_1x4.log", a+"broadcast_1x4.log", a+"broadcast_1x8.log", a+"broadcast_4x8.log", a+"broadcast_16x8.log")
	prose := docProse(t, "docs/tune.md")
	tune := func(cal []string, comms, size, hw string) ([]string, string, string) {
		t.Helper()
		args := []string{"tune", "-calibrate", strings.Join(cal, ","), "-comms", comms, "-size", size, "-collective", "broadcast", "-o", "-"}
		if hw != "" {
			args = append(args, "-hw", hw)
		}
		out, stderr := runDoc(t, args...)
		return args, out, stderr
	}

	// The header of a rule taken, part by part.
	args, out, _ := tune(seven, "8x8", "2MiB", "nics=8,nic-bw=200Gb/s,cpu=intel")
	if !strings.Contains(out, "# The rules that take the model's choice") {
		t.Errorf("-hw nics=8,nic-bw=200Gb/s,cpu=intel: no rule takes the model's choice:\n%s", out)
	}
	taken := headerEntry(t, out, "broadcast on 8 x 8, ")
	if len(taken) != 4 || !strings.HasPrefix(taken[1], "as the tables ran each protocol") || !strings.HasPrefix(taken[2], "by the model's own times, ") || !strings.HasPrefix(taken[3], "against the ") {
		t.Fatalf("the header's line %q: want the choice, the gain as the tables ran, the gain by the model's own times, and the gain against a measured time", taken)
	}
	wantSaid(t, "docs/tune.md", prose, args, taken...)
	if testing.Short() {
		return // the race detector's pass: one calibration (go test without -short checks the rest)
	}

	// Withheld without -hw: on the same sizes, standard error says why.
	args, out, stderr := tune(seven, "8x8", "2MiB", "")
	withheld := headerEntry(t, out, "broadcast on 8 x 8, ")
	if span := strings.SplitN(withheld[0], ":", 2)[0]; !strings.Contains(out, "# Withheld") || span != strings.SplitN(taken[0], ":", 2)[0] {
		t.Errorf("without -hw: %q; want the choice withheld on the sizes it takes with the facts given", withheld[0])
	}
	wantSaid(t, "docs/tune.md", prose, args, stderrParagraph(t, stderr, "commlab tune: broadcast on 8 x 8, "))
	for hw, want := range map[string]string{
		"system=dgx-a100":                              "rests on nic_path PIX, which is assumed; these sizes keep NCCL's own",
		"nics=4,nic-bw=200Gb/s":                        "rests on cpu intel and nic_path PIX, which are assumed; these sizes keep NCCL's own",
		"nics=4,nic-bw=200Gb/s,nic-path=PIX,cpu=intel": "",
	} {
		_, out, stderr := tune(seven, "8x8", "2MiB", hw)
		if want == "" {
			// Taken at 2 MiB alone.
			if e := headerEntry(t, out, "broadcast on 8 x 8, "); strings.Contains(out, "# Withheld") || !strings.HasPrefix(e[0], "broadcast on 8 x 8, 2097152 to 2097152 B: ") {
				t.Errorf("-hw %s: %q; want the rule taken at 2 MiB alone", hw, e[0])
			}
			continue
		}
		if !strings.Contains(stderr, "commlab tune: broadcast on 8 x 8, ") || !strings.Contains(stderr, want) {
			t.Errorf("-hw %s: stderr %s; want the choice withheld: %q", hw, stderr, want)
		}
	}

	// 16 x 8 at 4 MiB, calibrated on all twelve logs: its gain, and as the
	// tables ran each protocol.
	args, out, _ = tune(twelve, "16x8", "4MiB", "")
	e := headerEntry(t, out, "broadcast on 16 x 8, ")
	if len(e) < 3 {
		t.Fatalf("16 x 8: the header's line %q", e)
	}
	wantSaid(t, "docs/tune.md", prose, args, e[0][strings.LastIndex(e[0], ": ")+2:], e[1], e[2])
	// The H800's Broadcast, where no choice is taken: TestTuneWithheldMisses
	// holds docs/tune.md's quote of its header.
}

// TestPredictGuideNumbers: docs/predict.md's prose quotes what predict
// prints on its public and paired logs, each beside the command or naming
// it: two runs of one shape, a table far off the others and what it does
// to the calibration, the table held out worst, the layout's launch floor,
// the either-or facts the tables choose, and AllToAll on 2,048 ranks.
func TestPredictGuideNumbers(t *testing.T) {
	t.Parallel()
	const page = "docs/predict.md"
	prose := docProse(t, page)
	real := "../../data/nccltests/testdata/real/"
	paired := "../../data/logs/paired/"

	t.Run("same shape", func(t *testing.T) {
		t.Parallel()
		args := []string{"predict", "-calibrate", real + "h100_8x8_allreduce_default_nccltests309.log," + real + "h100_8x8_allreduce_minctas24_nccltests309.log",
			"-collective", "allreduce", "-p", "64", "-per-node", "8", "-size", "1GiB"}
		_, stderr := runDoc(t, args...)
		m := regexp.MustCompile(`ran the same shape \(allreduce on 8 x 8\), but their times differ by more than 1\.2x at \d+ of their \d+ common sizes`).FindString(stderr)
		if m == "" {
			t.Fatalf("no note of two runs of one shape in\n%s", stderr)
		}
		wantSaid(t, page, prose, args, m)
	})

	vp := func(files ...string) string {
		for i, f := range files {
			files[i] = real + "h100_" + f + "_voltagepark.log"
		}
		return strings.Join(files, ",")
	}
	six := vp("4x8_allreduce", "4x8_allgather", "4x8_broadcast", "1x8_g8_allreduce", "1x8_g8_allgather", "1x8_g8_broadcast")
	t.Run("far off", func(t *testing.T) {
		t.Parallel()
		skipShort(t)
		args := []string{"predict", "-calibrate", six, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1KiB"}
		out, stderr := runDoc(t, args...)
		off := func(f string) string {
			m := regexp.MustCompile(regexp.QuoteMeta(f) + `#0 runs (\S+x) slower than the other tables predict`).FindStringSubmatch(stderr)
			if m == nil {
				t.Fatalf("%s is not named far off:\n%s", f, stderr)
			}
			return m[1]
		}
		allgather, broadcast := off("h100_1x8_g8_allgather_voltagepark.log"), off("h100_1x8_g8_broadcast_voltagepark.log")
		wantSaid(t, page, prose, args, "h100_1x8_g8_allgather_voltagepark.log#0 runs "+allgather+" slower than the other tables predict",
			fmt.Sprintf("lie %s and %s off, calibrated on the cluster's six tables", allgather, broadcast))
		// The launch layout's floor on one node, in the layout
		// predicted and with the one-node tables' -g 8.
		one, _, _ := rowOf(t, out, "1 KiB")
		out, _ = runDoc(t, append(args, "-g", "8")...)
		g8, _, _ := rowOf(t, out, "1 KiB")
		wantSaid(t, page, prose, args, fmt.Sprintf("an AllReduce of 1 KiB on 1 x 8 is %s, and %s with `-g 8`", one, g8))
	})

	t.Run("far off tables' pull", func(t *testing.T) {
		t.Parallel()
		skipShort(t)
		// The 4-node AllReduce's rows from 1 MiB, against the model
		// calibrated on the others, with and without the two one-node
		// tables far off.
		tabs, _, err := predict.ReadFile(real+"h100_4x8_allreduce_voltagepark.log", nil)
		if err != nil || len(tabs) != 1 {
			t.Fatalf("%d tables, %v", len(tabs), err)
		}
		measured := map[int64]float64{}
		for _, p := range tabs[0].Points {
			if p.Size >= 1<<20 {
				measured[int64(p.Size)] = p.Time
			}
		}
		errs := make([]string, 2)
		for i, cal := range []string{
			vp("4x8_allgather", "4x8_broadcast", "1x8_g8_allreduce", "1x8_g8_allgather", "1x8_g8_broadcast"),
			vp("4x8_allgather", "4x8_broadcast", "1x8_g8_allreduce"),
		} {
			out, _ := runDoc(t, "predict", "-calibrate", cal, "-collective", "allreduce", "-p", "32", "-per-node", "8", "-size", "1MiB..8GiB", "-json")
			var res predictJSON
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			var e []float64
			for _, p := range res.Predictions {
				m, ok := measured[p.SizeBytes]
				if !ok {
					t.Fatalf("no row of %d B in the 4-node AllReduce", p.SizeBytes)
				}
				e = append(e, math.Abs(p.TimeS/m-1))
			}
			if len(e) != len(measured) {
				t.Fatalf("%d predictions of %d rows from 1 MiB", len(e), len(measured))
			}
			errs[i] = strconv.FormatFloat(100*fit.Median(e), 'f', 1, 64) + "%"
		}
		wantSaid(t, page, prose, []string{"predict -calibrate ... -collective allreduce -p 32 -per-node 8 -size 1MiB..8GiB"},
			fmt.Sprintf("with a median error of %s against its log's times, and %s calibrated without the two one-node tables", errs[0], errs[1]))
	})

	t.Run("held out worst", func(t *testing.T) {
		t.Parallel()
		skipShort(t)
		p := real + "a100_"
		args := []string{"predict", "-gpu", "A100-SXM4-40GB", "-calibrate", p + "1x4_allreduce_polaris_ss11.log:nodes=1:per-node=4," +
			p + "4x4_allreduce_simple_polaris_ss11.log:nodes=4:per-node=4:proto=simple," + p + "4x4_allgather_stalled_polaris_ss11.log:nodes=4:per-node=4:proto=simple",
			"-collective", "allreduce", "-p", "16", "-per-node", "4", "-size", "1MiB"}
		_, stderr := runDoc(t, args...)
		m := regexp.MustCompile(`a100_1x4_allreduce_polaris_ss11\.log#0 is the table held out worst: \S+ median error`).FindString(stderr)
		if m == "" {
			t.Fatalf("no table held out worst in\n%s", stderr)
		}
		wantSaid(t, page, prose, args, m)
	})

	t.Run("either-or facts", func(t *testing.T) {
		t.Parallel()
		skipShort(t)
		c := paired + "gb200-nvl72-coreweave/"
		coreweave := func(keys string) string {
			return c + "allreduce_1rack.log:nodes=18:gpu=NVIDIA GB200" + keys + "," + c + "allreduce_2racks.log:ranks=128:nodes=32:gpu=NVIDIA GB200" + keys + "," +
				c + "allreduce_20racks.log:nodes=360" + keys
		}
		chosen := regexp.MustCompile(`(\S+) = (.+?) is chosen by the held-out fit of the \d+ tables: leave-one-table-out median error (\S+), against (\S+) with`)
		query := func(p, perNode string) []string {
			return []string{"-collective", "allreduce", "-p", p, "-per-node", perNode, "-size", "1GiB"}
		}
		args := append([]string{"predict", "-calibrate", coreweave(":version=2.26.2")}, query("144", "4")...)
		_, stderr := runDoc(t, args...)
		m := chosen.FindStringSubmatch(stderr)
		if m == nil || m[1] != "nvls" || m[2] != "false" {
			t.Fatalf("CoreWeave at 2.26.2: %q; want NVLS off chosen:\n%s", m, stderr)
		}
		wantSaid(t, page, prose, args, fmt.Sprintf("NVLS off is chosen (%s against %s)", m[3], m[4]))
		if _, stderr := runDoc(t, append([]string{"predict", "-calibrate", coreweave("")}, query("144", "4")...)...); chosen.MatchString(stderr) {
			t.Errorf("CoreWeave at the release assumed: %s; want nothing chosen", chosen.FindString(stderr))
		}
		args = append([]string{"predict", "-calibrate", paired + "h100-sxm-ib8xndr/allreduce_issue290.log"}, query("16", "8")...)
		_, stderr = runDoc(t, args...)
		if m = chosen.FindStringSubmatch(stderr); m == nil || m[1] != "nic_bw" {
			t.Fatalf("nccl-tests#290: %q; want the NICs' rate chosen:\n%s", m, stderr)
		}
		wantSaid(t, page, prose, args, fmt.Sprintf("the NICs' rate is chosen at an eighth of the 400 Gb/s assumed, %s (%s against %s)", m[2], m[3], m[4]))
		d := paired + "h100-sxm-10node-cluster01/"
		var cluster01 []string
		for _, f := range []string{"N1_G4_cnode3-002", "N1_G8_cnode3-002", "N2_G1_cnode3-002_cnode3-003", "N2_G4_cnode3-002_cnode3-003", "N2_G8_cnode3-002_cnode3-003", "N10_G1", "N10_G2", "N10_G4", "N10_G8"} {
			cluster01 = append(cluster01, d+"nccl_"+f+".log")
		}
		if _, stderr := runDoc(t, append([]string{"predict", "-calibrate", strings.Join(cluster01, ",")}, query("16", "8")...)...); chosen.MatchString(stderr) {
			t.Errorf("cluster01: %s; want nothing chosen", chosen.FindString(stderr))
		}
	})

	t.Run("alltoall groups", func(t *testing.T) {
		t.Parallel()
		skipShort(t)
		d := paired + "h100-sxm-10node-cluster01/"
		args := []string{"predict", "-calibrate", d + "nccl_N10_G8.log," + d + "nccl_N2_G8_cnode3-002_cnode3-003.log," + d + "nccl_N1_G8_cnode3-002.log",
			"-collective", "alltoall", "-p", "2048", "-per-node", "8", "-size", "1GiB,16GiB"}
		var said []string
		for _, hw := range [][]string{nil, {"-hw", "group=32,oversub=2"}} {
			out, _ := runDoc(t, append(slices.Clone(args), hw...)...)
			tm, lo, hi := rowOf(t, out, "1 GiB")
			lo, _, _ = strings.Cut(lo, " ")
			hi, _, _ = strings.Cut(hi, " ")
			said = append(said, fmt.Sprintf("%s [%s, %s]", tm, lo, hi))
		}
		wantSaid(t, page, prose, args, fmt.Sprintf("AllToAll of 1 GiB is %s without groups and %s with groups of 32 at 2:1", said[0], said[1]))
	})
}

// TestDiagnoseGuideClaims: docs/diagnose.md quotes the largest-gap line of
// Azure's AKS AllReduce over IP-over-InfiniBand sockets, and sets
// cluster01's 80-rank AllReduce at 64 MiB (939.84 us in nccl_N10_G8.log)
// inside the interval predict gives from the README's calibration and in a
// finding of diagnose's on the same calibration.
func TestDiagnoseGuideClaims(t *testing.T) {
	t.Parallel()
	prose := docProse(t, "docs/diagnose.md")
	args := []string{"diagnose", "-gpu", "A100-SXM4-40GB", "../../data/nccltests/testdata/real/a100_2x8_allreduce_azure_ndasrv4_aks_ipoib_sockets.log"}
	out, _ := runDoc(t, args...)
	_, gap, ok := strings.Cut(out, "largest gap: ")
	gap, _, _ = strings.Cut(gap, "\n")
	if !ok {
		t.Fatalf("no largest-gap line in\n%s", out)
	}
	wantSaid(t, "docs/diagnose.md", prose, args, "largest gap: "+gap)
	const d = "../../data/logs/paired/h100-sxm-10node-cluster01/"
	cal := d + "nccl_N10_G1.log," + d + "nccl_N10_G2.log," + d + "nccl_N10_G4.log," + d + "nccl_N1_G8_cnode3-002.log"
	args = []string{"predict", "-calibrate", cal, "-collective", "allreduce", "-p", "80", "-per-node", "8", "-size", "64MiB"}
	out, _ = runDoc(t, args...)
	_, low, high := rowOf(t, out, "64 MiB")
	wantSaid(t, "docs/diagnose.md", prose, args, fmt.Sprintf("AllReduce at 64 MiB, 940 µs, is inside the %s to %s predict gives", low, high))
	args = []string{"diagnose", d + "nccl_N10_G8.log", "-calibrate", cal}
	if out, _ = runDoc(t, args...); !regexp.MustCompile(`(?m)^32 MiB\.\.64 MiB +\S+ +slower than the model`).MatchString(out) {
		t.Errorf("commlab %s: no finding over 64 MiB in\n%s", strings.Join(args, " "), out)
	}
}
