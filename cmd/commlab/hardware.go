package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

// hardwareOutput is the machine a command's model ran on: a one-line
// summary, every fact with its source, the guesses that move the answer,
// and where there are some, the catalog's systems of the GPU and host
// size whose documented facts would settle them all (predict.SystemsOf).
type hardwareOutput struct {
	Summary string         `json:"summary"`
	Facts   []predict.Fact `json:"facts"`
	Guesses []guessOutput  `json:"guesses"`
	Systems []string       `json:"systems,omitempty"`
}

// guessOutput is an assumed fact that moves the prediction by more than
// predict.GuessMoves: at size_bytes the prediction with alternative is
// ratio times the one with the fact as assumed; hint is the -hw setting
// that settles it.
// The guess of the GPU itself, where the catalog does not know it, has no
// alternative, size or ratio: every other fact rests on it.
type guessOutput struct {
	Fact        string  `json:"fact"`
	Value       string  `json:"value"`
	Alternative string  `json:"alternative,omitempty"`
	SizeBytes   float64 `json:"size_bytes,omitempty"`
	Ratio       float64 `json:"ratio,omitempty"`
	// Choice is the algorithm and protocol the alternative's prediction
	// runs at SizeBytes where they differ from the fact's
	// (predict.Guess.Choice).
	Choice string `json:"alternative_choice,omitempty"`
	Hint   string `json:"hint"`
	// Better reports that the tables fit the alternative better than the
	// fact as assumed (predict.Guess.Better).
	Better bool `json:"tables_fit_better,omitempty"`
	// widens is the width (high over low) of the interval printed at
	// SizeBytes where the guess's prediction lies outside the model's own
	// interval there, so that the interval was widened to hold it; 0
	// where the model's own interval holds it.
	widens float64
	// rccl is set on the guess of a GPU the logs do not name where they
	// ran RCCL: the GPU is AMD's, and the line says so.
	rccl bool
	// cc is the GPU's compute capability times ten where it alone makes
	// the GPU AMD's (amdCompCap), 0 otherwise: the line says so.
	cc int
}

// hardwareOf returns hw's summary and facts, with the guess of the GPU
// where the catalog does not know it (gpuGuess) and no other; tables are
// the calibration tables, whose logs may say the GPU is AMD's.
func hardwareOf(hw predict.Hardware, tables []predict.Table) hardwareOutput {
	out := hardwareOutput{Summary: hw.String(), Facts: hw.Facts(), Guesses: []guessOutput{}}
	if g, ok := gpuGuess(out.Facts, predict.RanRCCL(tables), amdCompCap(&hw)); ok {
		out.Guesses = append(out.Guesses, g)
	}
	return out
}

// gpuGuess returns the guess of a GPU the logs do not name or the catalog
// does not know, whose links are assumed: no ratio measures it, and the
// hint says how to name or describe it, an AMD GPU's Infinity Fabric where
// the logs ran RCCL or its compute capability cc is AMD's alone
// (amdCompCap, 0 for none).
func gpuGuess(facts []predict.Fact, rccl bool, cc int) (guessOutput, bool) {
	g, bw := factOf(facts, "gpu"), factOf(facts, "link_bw")
	if g.Source == predict.SourceCatalog || !bw.Guessed() || !factOf(facts, "fabric").Guessed() && bw.Value != "unknown" {
		return guessOutput{}, false // known, or described: -hw fabric, links or link-bw
	}
	switch {
	case g.Value == predict.UnnamedGPU:
		return guessOutput{Fact: "gpu", Value: g.Value, Hint: "-gpu NAME", rccl: rccl, cc: cc}, true
	case rccl || cc > 0 || nccl.ISAOf(g.Value) != "" || nccl.AMDName(g.Value):
		return guessOutput{Fact: "gpu", Value: g.Value, Hint: "-hw cc=X.Y,fabric=infinity,links=N,link-bw=RATE", rccl: rccl, cc: cc}, true
	}
	return guessOutput{Fact: "gpu", Value: g.Value, Hint: "-hw cc=X.Y,links=N,link-bw=RATE"}, true
}

// amdCompCap returns the compute capability, times ten, of hw's GPU where
// the catalog lacks it and that alone makes it AMD's
// (predict.Hardware.CompCapISA: -hw cc=9.5), 0 otherwise.
func amdCompCap(hw *predict.Hardware) int {
	if hw.CompCapISA() == "" {
		return 0
	}
	return hw.GPU.CompCap
}

// amdWhy says why a GPU the catalog lacks is taken as AMD's: its name is
// an AMD GPU's target, with the catalog's GPUs of that target, or its
// compute capability cc (times ten, 0 for none) is AMD's alone
// (amdCompCap), or its logs ran RCCL (rccl).
func amdWhy(name string, cc int, rccl bool) string {
	isa, of := nccl.ISAOf(name), ""
	if isa == "" && cc > 0 {
		isa = nccl.ISAOfCompCap(cc)
		of = fmt.Sprintf("cc=%d.%d is no NVIDIA GPU's compute capability but the GFXIP version of AMD's %s, ", cc/10, cc%10, isa)
	}
	switch gpus := nccl.ISAGPUs(isa); {
	case len(gpus) > 0 && of != "":
		return fmt.Sprintf("%sthe target of the catalog's %s: -gpu %q names one, and every fact of it", of, words.And(gpus), gpus[0])
	case len(gpus) > 0:
		return fmt.Sprintf("%s is the target of the catalog's %s: -gpu %q names one, and every fact of it", isa, words.And(gpus), gpus[0])
	case of != "":
		return fmt.Sprintf("cc=%d.%d is no NVIDIA GPU's compute capability but AMD's", cc/10, cc%10)
	case isa != "":
		return fmt.Sprintf("%s is an AMD GPU's target, of no GPU the catalog holds", isa)
	case rccl:
		return "the logs ran RCCL, so it is AMD's"
	case nccl.AMDName(name):
		return "its name is AMD's, so RCCL's rules apply"
	}
	return ""
}

// guessWeight orders the guess lines: the GPU's first (it has no ratio,
// and every other fact rests on it), then by how far the alternative
// moves the prediction, either way.
func guessWeight(g guessOutput) float64 {
	if g.Ratio <= 0 {
		return math.Inf(1)
	}
	return math.Abs(math.Log(g.Ratio))
}

// describeHardware returns hw's facts and the guesses that move the
// prediction of q at sizes, calibrated on tables where there are some,
// both as printed and as predict.Guesses returns them.
//
// gpuNames are the GPU's names as given: -gpu's, else the tables'.
func describeHardware(hw predict.Hardware, tables []predict.Table, gpuNames []string, q predict.Query, sizes []float64) (hardwareOutput, []predict.Guess, error) {
	out := hardwareOf(hw, tables)
	gs, err := predict.Guesses(hw, tables, q, sizes)
	if err != nil {
		return hardwareOutput{}, nil, err
	}
	for _, g := range gs {
		hint := g.Flag()
		out.Guesses = append(out.Guesses, guessOutput{Fact: g.Fact.Name, Value: g.Fact.Value, Alternative: g.Alternative,
			SizeBytes: g.Size, Ratio: g.Ratio, Choice: g.Choice, Hint: hint, Better: g.Better})
	}
	// The guess that moves the prediction most comes first (after the
	// GPU's, on which every other fact rests): a user settles the first
	// line before the rest, and a 64x guess must not wait behind a 1.3x one.
	slices.SortStableFunc(out.Guesses, func(a, b guessOutput) int {
		return cmp.Compare(guessWeight(b), guessWeight(a))
	})
	// A system of the catalog is offered where it documents an assumed
	// fact, whether or not that fact moves this prediction: it moves
	// others (another node count, a collective the tables did not run).
	var guessed []string
	for _, f := range hw.Facts() {
		if f.Guessed() {
			guessed = append(guessed, f.Name)
		}
	}
	out.Systems = predict.SystemsOf(hw, max(q.PerNode, predict.HostGPUs(tables)), guessed)
	// A system whose GPUs' memory is not the one the GPU's name prints
	// (an 80 GB instance for logs of A100-SXM4-40GB) is not the machine.
	out.Systems = predict.SystemsOfGPUs(out.Systems, gpuNames)
	if factOf(out.Facts, "gpu").Value == predict.UnnamedGPU && predict.RanRCCL(tables) {
		// Logs that ran RCCL ran on AMD GPUs: no NVIDIA system fits.
		out.Systems = slices.DeleteFunc(out.Systems, func(name string) bool { return !amdSystem(name) })
	}
	return out, gs, nil
}

// amdSystem reports whether the catalog's system name has AMD GPUs.
func amdSystem(name string) bool {
	for _, s := range presets.Systems {
		if strings.EqualFold(s.Name, name) {
			return strings.HasPrefix(s.GPU, "AMD ")
		}
	}
	return false
}

// amdGPUs lists the catalog's AMD GPUs, for a -gpu hint on logs that ran
// RCCL and name none: "AMD Instinct MI355X, MI350X, ...".
func amdGPUs() string {
	names := nccl.CatalogGPUs(true)
	for i := 1; i < len(names); i++ {
		names[i] = strings.TrimPrefix(names[i], "AMD Instinct ")
	}
	return words.And(names)
}

// factOf returns the fact of facts named name, the zero Fact (guessed)
// where there is none.
// nearGPU is the clause that names the catalog's product a GPU name the
// catalog lacks may mean (nccl.NearGPU: "H10" for the H100), "" for none.
func nearGPU(name string) string {
	if n := nccl.NearGPU(name); n != "" {
		return fmt.Sprintf("; if it is the catalog's %s, -gpu %q", n, n)
	}
	return ""
}

// withFact returns facts with f in place of the fact of its name, or
// after them where there is none.
func withFact(facts []predict.Fact, f predict.Fact) []predict.Fact {
	out := slices.Clone(facts)
	if k := slices.IndexFunc(out, func(g predict.Fact) bool { return g.Name == f.Name }); k >= 0 {
		out[k] = f
		return out
	}
	return append(out, f)
}

func factOf(facts []predict.Fact, name string) predict.Fact {
	for _, f := range facts {
		if f.Name == name {
			return f
		}
	}
	return predict.Fact{}
}

// writeHardware prints the guesses that move the answer first, then the
// machine, each fact with its source and the assumed ones marked.
func writeHardware(w io.Writer, h hardwareOutput) {
	writeGuesses(w, h)
	// The summary reads as fact: it names which of its own parts are
	// assumed, as the facts line marks them.
	var assumed []string
	for _, name := range []string{"fabric", "links", "nvls", "nics_per_node", "nic_bw"} {
		if f := factOf(h.Facts, name); f.Name != "" && f.Guessed() {
			assumed = append(assumed, name)
		}
	}
	if len(assumed) > 0 {
		fmt.Fprintf(w, "hardware: %s (%s assumed)\n", h.Summary, strings.Join(assumed, ", "))
	} else {
		fmt.Fprintf(w, "hardware: %s\n", h.Summary)
	}
	var parts []string
	for _, f := range h.Facts {
		mark := ""
		if f.Guessed() {
			mark = "?"
		}
		if f.Fitted != "" {
			mark += ", the tables fit " + f.Fitted
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s%s)", f.Name, f.Value, f.Source, mark))
	}
	fmt.Fprintf(w, "facts: %s\n", strings.Join(parts, ", "))
}

// writeGuesses prints the guess lines: the assumed facts that move the
// answer, each with the flag that settles it, and the catalog's systems
// that would settle them at once.
func writeGuesses(w io.Writer, h hardwareOutput) {
	for _, g := range h.Guesses {
		gpuLine := ""
		switch {
		case g.Fact == "gpu" && g.Value == predict.UnnamedGPU && !factOf(h.Facts, "fabric").Guessed():
			gpuLine = fmt.Sprintf("guess: gpu = %s: the logs name none, and its links' rate is unknown: settle it with %s, as the Rank lines of nccl-tests or rccl-tests print it", g.Value, g.Hint)
		case g.Fact == "gpu" && g.Value == predict.UnnamedGPU && g.cc > 0:
			gpuLine = fmt.Sprintf("guess: gpu = %s: the logs name none, and it is AMD's (%s), and a PCIe card without Infinity Fabric is assumed: settle it with %s, as the Rank lines of rccl-tests print it, or describe its Infinity Fabric with -hw links=N,link-bw=RATE", g.Value, amdWhy(g.Value, g.cc, g.rccl), g.Hint)
		case g.Fact == "gpu" && g.Value == predict.UnnamedGPU && g.rccl:
			gpuLine = fmt.Sprintf("guess: gpu = %s: the logs name none, but they ran RCCL, so it is AMD's, and a PCIe card without Infinity Fabric is assumed: settle it with %s, as the Rank lines of rccl-tests print it, such as -gpu \"AMD Instinct MI300X\" (the catalog holds the %s)", g.Value, g.Hint, amdGPUs())
		case g.Fact == "gpu" && g.Value == predict.UnnamedGPU:
			gpuLine = fmt.Sprintf("guess: gpu = %s: the logs name none, and a PCIe card without NVLink is assumed: settle it with %s, as the Rank lines of nccl-tests or rccl-tests print it", g.Value, g.Hint)
		case g.Fact == "gpu" && strings.Contains(g.Hint, "fabric=infinity") && !factOf(h.Facts, "fabric").Guessed():
			// The fabric is given (a capture's Infinity Fabric): the
			// links' rate is what is unknown.
			gpuLine = fmt.Sprintf("guess: gpu = %s is not in the catalog, and its links' rate is unknown (%s): describe it with -hw link-bw=RATE, and links=N where the capture cannot count them", g.Value, amdWhy(g.Value, g.cc, g.rccl))
		case g.Fact == "gpu" && strings.Contains(g.Hint, "fabric=infinity"):
			taken := "a PCIe card without Infinity Fabric"
			if factOf(h.Facts, "fabric").Value == predict.FabricInfinity.String() {
				taken = "an Infinity Fabric mesh of its links"
			}
			gpuLine = fmt.Sprintf("guess: gpu = %s is not in the catalog, and %s is assumed (%s): describe its Infinity Fabric with %s, or a PCIe card with -hw cc=X.Y,fabric=pcie,pcie=GEN", g.Value, taken, amdWhy(g.Value, g.cc, g.rccl), g.Hint)
		case g.Fact == "gpu" && !factOf(h.Facts, "fabric").Guessed():
			// The fabric is known (the logs' NCCL lines, a capture, -hw):
			// the GPU's links are what is assumed.
			fabric := factOf(h.Facts, "fabric")
			gpuLine = fmt.Sprintf("guess: gpu = %s is not in the catalog, and its compute capability and its links' count and rate are assumed on the %s fabric (%s): describe them with -hw cc=X.Y,links=N,link-bw=RATE%s",
				g.Value, fabric.Value, fabric.Source, nearGPU(g.Value))
		case g.Fact == "gpu":
			gpuLine = fmt.Sprintf("guess: gpu = %s is not in the catalog, and a PCIe card without NVLink is assumed: describe it with %s (an AMD Instinct host adds fabric=infinity), or a PCIe card with -hw cc=X.Y,fabric=pcie,pcie=GEN%s", g.Value, g.Hint, nearGPU(g.Value))
		}
		if gpuLine != "" {
			if len(h.Guesses) > 1 {
				gpuLine += "; every guess below rests on it"
			}
			fmt.Fprintln(w, gpuLine)
			continue
		}
		holds := "which the interval holds"
		if g.widens > 0 {
			holds = fmt.Sprintf("beyond the model's own interval, which is widened to hold it (%.1fx from low to high there)", g.widens)
		}
		if g.Better {
			holds = "which the tables fit better than the fact assumed, and " + holds
		}
		runs := ""
		if g.Choice != "" {
			runs = " (it runs " + g.Choice + " there)"
		}
		fmt.Fprintf(w, "guess: %s = %s is assumed; with %s the prediction at %s is %.2fx%s, %s: settle it with %s\n",
			g.Fact, g.Value, g.Alternative, units.FormatSize(g.SizeBytes), g.Ratio, runs, holds, g.Hint)
	}
	switch len(h.Systems) {
	case 0:
	case 1:
		fmt.Fprintf(w, "guess: if the machine is %s of the catalog, -hw system=%s settles its documented facts at once (docs/predict.md lists them)\n",
			h.Systems[0], h.Systems[0])
	case 2, 3, 4, 5, 6, 7, 8:
		// No example: the one named would be taken for the answer.
		fmt.Fprintf(w, "guess: if the machine is one of the catalog's %s, -hw system=NAME with its name settles its documented facts at once (docs/predict.md lists them)\n",
			joinOr(h.Systems))
	default:
		fmt.Fprintf(w, "guess: if the machine is one of the catalog's %d systems that fit, -hw system=NAME with its name settles its documented facts at once (docs/predict.md lists them; the JSON's hardware.systems names them)\n",
			len(h.Systems))
	}
}

// joinOr is "a, b or c".
func joinOr(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// domainMisfit is a run of nodes hosts of perHost GPUs that does not split
// into NVLink domains of domain GPUs holding equally many hosts, which the
// model needs (a run larger than one domain is split into the fewest
// domains that hold it, equally: predict's shapes), with the nearest node
// counts below and above that do split (0 where none below does).
type domainMisfit struct {
	nodes, perHost, hostGPUs, domain int
	below, above                     int
}

// domainSplit returns the misfit of nodes hosts of perHost GPUs on h's
// NVLink domains, and false where they split into equal domains, as the
// model splits them (predict.Hardware.Domains).
func domainSplit(h *predict.Hardware, nodes, perHost int) (domainMisfit, bool) {
	if h.CheckDomain(perHost) != nil {
		return domainMisfit{}, false // no node count splits it: domainHolds says so
	}
	g := h.HostGPUs(perHost)
	splits := func(n int) bool {
		_, _, ok := predict.DomainsOf(h.Domain, n, g)
		return ok
	}
	if splits(nodes) {
		return domainMisfit{}, false
	}
	m := domainMisfit{nodes: nodes, perHost: perHost, hostGPUs: g, domain: h.Domain}
	for n := nodes - 1; n >= 1; n-- {
		if splits(n) {
			m.below = n
			break
		}
	}
	for n := nodes + 1; ; n++ {
		if splits(n) {
			m.above = n
			break
		}
	}
	return m, true
}

// domainHolds returns a usage error where h's NVLink domain (-hw domain=N)
// does not hold whole hosts of perHost GPUs a host (predict's
// Hardware.CheckDomain), which no node count mends.
func domainHolds(h *predict.Hardware, perHost int) error {
	err := h.CheckDomain(perHost)
	switch {
	case err == nil:
		return nil
	case h.Sources.Domain == predict.SourceUser:
		return flagErrorf("-hw domain=%d: %w", h.Domain, err)
	}
	return flagErrorf("nvlink_domain %d (%s): %w", h.Domain, h.Sources.Domain, err)
}

// advice says why the run does not fit and which node counts do, each
// written by form (such as "-nodes 1998"), with its domains: "2000 hosts
// of 4 GPUs do not fill NVLink domains of 72 GPUs (18 hosts) equally, and
// the model splits a run into equal domains: try -nodes 1998 (111 domains
// of 18 hosts) or -nodes 2016 (112 domains of 18 hosts)".
func (m domainMisfit) advice(form func(nodes int) string) string {
	split := func(n int) string {
		d, hosts, _ := predict.DomainsOf(m.domain, n, m.hostGPUs)
		if d == 1 {
			return fmt.Sprintf("%s (one domain of %d hosts)", form(n), hosts)
		}
		return fmt.Sprintf("%s (%d domains of %d hosts)", form(n), d, hosts)
	}
	try := split(m.above)
	if m.below > 0 {
		try = split(m.below) + " or " + try
	}
	hosts := fmt.Sprintf("%d hosts of %d GPUs", m.nodes, m.perHost)
	if m.hostGPUs > m.perHost {
		hosts = fmt.Sprintf("%d hosts of %d GPUs (the run's %d a host)", m.nodes, m.hostGPUs, m.perHost)
	}
	return fmt.Sprintf("%s do not fill NVLink domains of %d GPUs (%d hosts) equally, and the model splits a run into equal domains: try %s",
		hosts, m.domain, m.domain/m.hostGPUs, try)
}
