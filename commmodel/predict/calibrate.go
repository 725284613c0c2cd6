package predict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// Settings tune Calibrate; nil means the defaults.
type Settings struct {
	// PriorWidth is the standard deviation of the log of every parameter
	// around its prior; 0 means ln 3 (a factor of 3).
	PriorWidth float64
	// Noise is the scale of the relative error of one table's points; 0
	// means 0.1. It sets how far the data outweighs the prior: a table's
	// mean squared log error counts 1/Noise² against the prior's
	// 1/PriorWidth² per parameter.
	Noise float64
	// Huber is the log error beyond which a point's weight falls as
	// Huber's (its pull grows linearly); 0 means 0.05.
	Huber float64
	// NoIntervals skips the leave-one-table-out refits behind Predict's
	// interval (Low and High are then the prediction).
	NoIntervals bool
}

func (s *Settings) withDefaults() Settings {
	var out Settings
	if s != nil {
		out = *s
	}
	if out.PriorWidth <= 0 {
		out.PriorWidth = math.Ln10 * math.Log10(3)
	}
	if out.Noise <= 0 {
		out.Noise = 0.1
	}
	if out.Huber <= 0 {
		out.Huber = 0.05
	}
	return out
}

// A Param is one calibrated parameter of a Machine.
type Param struct {
	// Name and Unit ("intra_bw", "B/s"); Doc says what it is.
	Name, Unit, Doc string
	// Value is the calibrated value and Prior the value the fit is pulled
	// towards, in Unit.
	Value, Prior float64
	// Used reports that some calibration point depends on the parameter;
	// an unused one stays at its prior.
	Used bool
	// Identified reports that the data, not the prior, fixes the value:
	// the posterior standard deviation of its log is under half the prior's.
	Identified bool
	// SD is that posterior standard deviation of the log (about the
	// relative uncertainty), from the fit's curvature.
	SD float64
}

// A Machine is the model calibrated on tables of one machine.
type Machine struct {
	// GPU is the GPU name the tables share.
	GPU string
	// Hardware is the description the model was built on.
	Hardware Hardware
	// Tables names the calibration tables.
	Tables []string
	// Params are the parameters in a fixed order (see the package
	// documentation), with their units and whether the data identified
	// them.
	Params []Param
	// Notes say what the model assumed (an unknown NCCL version, one
	// older than the tuner model) and which parameters the tables could
	// not identify.
	Notes []string
	// Residual is the median relative error of the calibration points.
	Residual float64
	// LOO is, for each calibration table in order, the median relative
	// error of its points predicted by the refit without it (empty with
	// Settings.NoIntervals); LOOMedian is the median of those.
	LOO       []float64
	LOOMedian float64

	version nccl.Version
	x       [numParams]float64 // natural values; latency factors are dimensionless
	loo     [][numParams]float64
	refs    *references
}

// references caches NCCL's model per run.
type references struct {
	hw *Hardware
	m  map[runKey]*reference
}

type runKey struct {
	shape       shape
	version     nccl.Version
	algo, proto string
}

func (r *references) get(run *run) (*reference, error) {
	k := runKey{run.shape, run.version, run.algo, run.proto}
	if ref, ok := r.m[k]; ok {
		return ref, nil
	}
	ref, err := newReference(r.hw, run)
	if err != nil {
		return nil, err
	}
	r.m[k] = ref
	return ref, nil
}

// design holds the terms of every calibration point.
type design struct {
	terms  []term
	obs    []float64 // measured times
	table  []int     // the table of each point
	weight []float64 // 1 / points of its table
}

// tableRun is the run of table t on h.
func tableRun(h *Hardware, t *Table) (*run, error) {
	s, err := h.shapeOf(t.Nodes, t.PerNode)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	v, guess, clamp := versionOf(t.Version)
	return &run{shape: s, version: v, algo: t.Algo, proto: t.Proto, gpusPerThrd: max(t.GPUsPerThread, 1),
		collective: t.Collective, versionGuess: guess, versionClamp: clamp}, nil
}

// termOf builds the term of one call of size bytes of r.
func (r *references) termOf(rn *run, size float64) (term, error) {
	ref, err := r.get(rn)
	if err != nil {
		return term{}, err
	}
	n := rn.shape.nodes * rn.shape.per
	ch, err := ref.choose(rn.collective, n, size)
	if err != nil {
		return term{}, err
	}
	f, a := nccl.Broadcast, nccl.Ring // P2P: one step of the ring's latency
	if !ch.p2p {
		f, _ = nccl.FuncOf(rn.collective)
		a = ch.algo
	}
	t := term{launches: float64(rn.gpusPerThrd), ch: ch, eff: efficiencies(ch), netEff: -1}
	if !ch.p2p && ch.algo == nccl.Ring && (f == nccl.Broadcast || f == nccl.Reduce) {
		t.netEff = parChain
	}
	t.lat[0], t.lat[1], t.lat[2] = ref.latency(f, a, ch.proto)
	nics := r.hw.nics(rn.shape.hosts, rn.shape.per/rn.shape.hosts)
	t.intra, t.net = bytes(rn.collective, ch, rn.shape, nics, size)
	return t, nil
}

// Calibrate fits the machine's parameters to tables of one machine on
// hardware h (DefaultHardware of the tables' GPU is a start). Each table is
// modelled with the algorithm and protocol NCCL ran at each size: its pin,
// or NCCL's tuner's choice for the table's shape and version. The fit
// minimises, over the logs x of the parameters,
//
//	Σ_tables 1/n_t Σ_points ρ(ln(T(x)/t))/σ² + Σ_k (x_k − x0_k)²/(2w²)
//
// with ρ Huber's loss (quadratic up to Settings.Huber), σ = Settings.Noise
// and w = Settings.PriorWidth: each table counts once whatever its size
// count, and a parameter no table informs stays at its prior x0. Unless
// Settings.NoIntervals, it then refits without each table in turn; Predict
// takes its interval from those refits.
//
// It returns ErrMixedMachines naming every table's GPU when the GPU names
// differ, ErrTooFew with fewer than two tables or fewer points than the
// parameters the tables use, and ErrBadTable for a table that cannot be
// modelled.
func Calibrate(h Hardware, tables []Table, s *Settings) (*Machine, error) {
	set := s.withDefaults()
	if len(tables) < 2 {
		return nil, fmt.Errorf("%w: %d table(s); leave-one-table-out needs at least 2", ErrTooFew, len(tables))
	}
	if err := sameMachine(tables); err != nil {
		return nil, err
	}
	m := &Machine{GPU: tables[0].GPU, Hardware: h, refs: &references{hw: &h, m: map[runKey]*reference{}}}
	d, notes, err := m.design(tables)
	if err != nil {
		return nil, err
	}
	m.Notes = notes
	used := d.used()
	nUsed := 0
	for _, u := range used {
		if u {
			nUsed++
		}
	}
	if len(d.obs) < nUsed {
		return nil, fmt.Errorf("%w: %d points for %d parameters", ErrTooFew, len(d.obs), nUsed)
	}
	x0 := m.prior()
	fit := d.fit(x0, x0, used, set, nil)
	m.x = fit.x
	for _, t := range tables {
		m.Tables = append(m.Tables, t.Name)
	}
	m.Params = m.params(x0, fit, used, set)
	var unused []string
	for _, p := range m.Params {
		switch {
		case !p.Used:
			unused = append(unused, p.Name)
		case !p.Identified:
			m.Notes = append(m.Notes, fmt.Sprintf("%s is not identified by these tables: %s, near its prior %s", p.Name, FormatValue(p.Value, p.Unit), FormatValue(p.Prior, p.Unit)))
		}
	}
	if len(unused) > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("no table depends on %s: they stay at their priors", strings.Join(unused, ", ")))
	}
	m.Residual = d.medianError(&m.x, nil)
	m.LOOMedian = math.NaN()
	if !set.NoIntervals {
		for i := range tables {
			skip := func(j int) bool { return d.table[j] == i }
			x := d.fit(x0, fit.x, used, set, skip).x
			m.loo = append(m.loo, x)
			m.LOO = append(m.LOO, d.medianError(&x, func(j int) bool { return d.table[j] != i }))
		}
		m.LOOMedian = median(slices.Sorted(slices.Values(m.LOO)))
	}
	return m, nil
}

// design builds the calibration points of tables and the notes on their
// versions.
func (m *Machine) design(tables []Table) (*design, []string, error) {
	d := &design{}
	var notes []string
	for i := range tables {
		t := &tables[i]
		if err := t.check(); err != nil {
			return nil, nil, err
		}
		rn, err := tableRun(&m.Hardware, t)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case rn.versionGuess:
			notes = append(notes, fmt.Sprintf("%s: NCCL version unknown; NCCL %v's tuner is assumed", t.Name, rn.version))
		case rn.versionClamp:
			notes = append(notes, fmt.Sprintf("%s: NCCL %v predates the tuner model; NCCL %v's is used", t.Name, t.Version, rn.version))
		}
		if m.version.Before(rn.version) {
			m.version = rn.version
		}
		for _, p := range t.Points {
			tm, err := m.refs.termOf(rn, p.Size)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", t.Name, err)
			}
			d.terms = append(d.terms, tm)
			d.obs = append(d.obs, p.Time)
			d.table = append(d.table, i)
			d.weight = append(d.weight, 1/float64(len(t.Points)))
		}
	}
	return d, notes, nil
}

// prior returns the prior values of the parameters (see the package
// documentation for their sources).
func (m *Machine) prior() [numParams]float64 {
	var x [numParams]float64
	x[parLaunch] = 3.1e-6
	x[parBase], x[parIntra], x[parInter] = 1, 1, 1
	x[parIntraBW] = m.Hardware.intraBW()
	x[parNICBW] = m.Hardware.NICBW
	if x[parNICBW] <= 0 {
		x[parNICBW] = nicRates[arch(m.Hardware.GPU.CompCap)]
	}
	x[parLL] = commmodel.LL.Efficiency()
	x[parLL128] = commmodel.LL128.Efficiency()
	x[parNVLS] = 0.85
	if e := nccl.DefaultConstants(m.version).NVLSEfficiency[arch(m.Hardware.GPU.CompCap)]; e > 0 {
		x[parNVLS] = e
	}
	x[parTree] = 0.92
	x[parChain] = 1
	return x
}

// latencyUnits are the seconds one unit of each latency factor stands for:
// NCCL's Ring/LL base, intra-node step and network step latency of the
// machine's newest version.
func (m *Machine) latencyUnits() (base, intra, inter float64) {
	c := nccl.DefaultConstants(m.version)
	hw := nccl.HWPCI
	if m.Hardware.NVSwitch {
		hw = nccl.HWNVLink
	}
	return c.BaseLatency[nccl.Ring][nccl.LL] * 1e-6, c.HWLatency[hw][nccl.Ring][nccl.LL] * 1e-6,
		c.HWLatency[nccl.HWNet][nccl.Ring][nccl.LL] * 1e-6
}

// params reports the fitted parameters.
func (m *Machine) params(x0 [numParams]float64, f fitResult, used [numParams]bool, set Settings) []Param {
	var unit [numParams]float64
	for k := range unit {
		unit[k] = 1
	}
	unit[parBase], unit[parIntra], unit[parInter] = m.latencyUnits()
	out := make([]Param, numParams)
	for k := range out {
		info := paramInfo[k]
		out[k] = Param{Name: info.name, Unit: info.unit, Doc: info.doc,
			Value: f.x[k] * unit[k], Prior: x0[k] * unit[k], Used: used[k], SD: f.sd[k]}
		out[k].Identified = used[k] && f.sd[k] < set.PriorWidth/2
	}
	return out
}

// FormatValue prints a parameter's value in its unit ("s", "B/s", "B" or
// "1") with commmodel's formatters.
func FormatValue(v float64, unit string) string {
	switch unit {
	case "s":
		return commmodel.FormatDuration(v)
	case "B/s":
		return commmodel.FormatBandwidth(v)
	case "B":
		return commmodel.FormatSize(v)
	}
	return commmodel.FormatNumber(v)
}

// used reports which parameters some point depends on.
func (d *design) used() [numParams]bool {
	var u [numParams]bool
	for i := range d.terms {
		t := &d.terms[i]
		u[parLaunch] = u[parLaunch] || t.launches > 0
		u[parBase] = u[parBase] || t.lat[0] > 0
		u[parIntra] = u[parIntra] || t.lat[1] > 0
		u[parInter] = u[parInter] || t.lat[2] > 0
		u[parIntraBW] = u[parIntraBW] || t.intra > 0
		u[parNICBW] = u[parNICBW] || t.net > 0
		for _, e := range t.eff {
			if e >= 0 && (t.intra > 0 || t.net > 0) {
				u[e] = true
			}
		}
		if t.netEff >= 0 && t.net > 0 {
			u[t.netEff] = true
		}
	}
	return u
}

// medianError is the median |T/t - 1| at x of the points skip does not
// drop (nil: all).
func (d *design) medianError(x *[numParams]float64, skip func(int) bool) float64 {
	var e []float64
	for i := range d.terms {
		if skip == nil || !skip(i) {
			e = append(e, math.Abs(d.terms[i].time(x)/d.obs[i]-1))
		}
	}
	slices.Sort(e)
	return median(e)
}

// median of sorted x (NaN when empty).
func median(x []float64) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// fitResult is the outcome of one fit: natural parameter values and the
// posterior standard deviation of each log.
type fitResult struct {
	x  [numParams]float64
	sd [numParams]float64
}

// fit runs Levenberg-Marquardt with Huber reweighting on the logs of the
// used parameters, with prior x0 and from start, over the points skip does
// not drop.
func (d *design) fit(x0, start [numParams]float64, used [numParams]bool, set Settings, skip func(int) bool) fitResult {
	var idx []int
	for k := range used {
		if used[k] {
			idx = append(idx, k)
		}
	}
	k := len(idx)
	var pts []int
	for i := range d.obs {
		if skip == nil || !skip(i) {
			pts = append(pts, i)
		}
	}
	// Rescale the table weights to the points kept.
	wt := make([]float64, len(d.obs))
	counts := map[int]int{}
	for _, i := range pts {
		counts[d.table[i]]++
	}
	for _, i := range pts {
		wt[i] = 1 / float64(counts[d.table[i]])
	}
	prior := make([]float64, k)
	for j, p := range idx {
		prior[j] = math.Log(x0[p])
	}
	z := make([]float64, k)
	for j, p := range idx {
		z[j] = math.Log(start[p])
	}
	at := func(z []float64) [numParams]float64 {
		x := x0
		for j, p := range idx {
			x[p] = math.Exp(z[j])
		}
		return x
	}
	resid := func(z []float64, r []float64) {
		x := at(z)
		for n, i := range pts {
			r[n] = math.Log(d.terms[i].time(&x) / d.obs[i])
		}
	}
	sig2, w2 := set.Noise*set.Noise, set.PriorWidth*set.PriorWidth
	r := make([]float64, len(pts))
	rt := make([]float64, len(pts))
	jac := mat.NewDense(max(len(pts), 1), max(k, 1), nil)
	robust := make([]float64, len(pts))
	objective := func(z []float64, r []float64) float64 {
		resid(z, r)
		s := 0.0
		for n, i := range pts {
			s += wt[i] * huber(r[n], set.Huber) / sig2
		}
		for j := range z {
			s += (z[j] - prior[j]) * (z[j] - prior[j]) / (2 * w2)
		}
		return s
	}
	cur := objective(z, r)
	lambda := 1e-3
	h := mat.NewSymDense(max(k, 1), nil)
	g := mat.NewVecDense(max(k, 1), nil)
	for iter := 0; iter < 200 && k > 0; iter++ {
		// Jacobian of the log residuals by forward differences.
		zz := slices.Clone(z)
		for j := range z {
			step := 1e-6
			zz[j] = z[j] + step
			resid(zz, rt)
			zz[j] = z[j]
			for n := range pts {
				jac.Set(n, j, (rt[n]-r[n])/step)
			}
		}
		for n, i := range pts {
			robust[n] = wt[i] * huberWeight(r[n], set.Huber) / sig2
		}
		for a := range k {
			ga := (z[a] - prior[a]) / w2
			for n := range pts {
				ga += robust[n] * jac.At(n, a) * r[n]
			}
			g.SetVec(a, ga)
			for b := a; b < k; b++ {
				s := 0.0
				for n := range pts {
					s += robust[n] * jac.At(n, a) * jac.At(n, b)
				}
				if a == b {
					s += 1 / w2
				}
				h.SetSym(a, b, s)
			}
		}
		improved, converged := false, false
		for try := 0; try < 20; try++ {
			damped := mat.NewSymDense(k, nil)
			damped.CopySym(h)
			for a := range k {
				damped.SetSym(a, a, h.At(a, a)*(1+lambda))
			}
			var step mat.VecDense
			var ch mat.Cholesky
			if !ch.Factorize(damped) || ch.SolveVecTo(&step, g) != nil {
				lambda *= 10
				continue
			}
			next := slices.Clone(z)
			for a := range k {
				next[a] -= step.AtVec(a)
			}
			if v := objective(next, rt); v < cur {
				converged = cur-v < 1e-10*cur
				z, cur = next, v
				copy(r, rt)
				lambda = max(lambda/10, 1e-9)
				improved = true
				break
			}
			lambda *= 10
		}
		if !improved || converged || lambda > 1e12 {
			break
		}
		if mat.Norm(g, math.Inf(1)) < 1e-9 {
			break
		}
	}
	out := fitResult{x: at(z)}
	for p := range out.sd {
		out.sd[p] = set.PriorWidth
	}
	if k > 0 {
		var ch mat.Cholesky
		if ch.Factorize(h) {
			var cov mat.SymDense
			if ch.InverseTo(&cov) == nil {
				for j, p := range idx {
					out.sd[p] = math.Sqrt(cov.At(j, j))
				}
			}
		}
	}
	return out
}

// huber is Huber's loss of r with threshold c: r²/2 inside, c(|r| - c/2) beyond.
func huber(r, c float64) float64 {
	if a := math.Abs(r); a > c {
		return c * (a - c/2)
	}
	return r * r / 2
}

// huberWeight is the IRLS weight of Huber's loss: 1 inside, c/|r| beyond.
func huberWeight(r, c float64) float64 {
	if a := math.Abs(r); a > c {
		return c / a
	}
	return 1
}
