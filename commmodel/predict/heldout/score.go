package heldout

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
)

// LargeSize is the size from which Score's "large" errors count, 1 MiB.
const LargeSize = 1 << 20

// Errors are the median relative errors |predicted/measured − 1| of one
// held-out table: over all its points and over those of at least LargeSize.
// A median without points is NaN.
type Errors struct {
	All, Large float64
}

// A Score is how well one held-out table is predicted from the other tables
// of its machine.
type Score struct {
	// Table is the held-out table's name.
	Table string
	// Points and Large count its points, all and at least LargeSize.
	Points, Large int
	// Model is the calibrated model's error, Baseline the one-link
	// model's (Baseline below) and NCCL the uncalibrated tuner model's
	// (Reference; NaN for AllToAll and SendRecv, which it does not model).
	Model, Baseline, NCCL Errors
	// Inside counts the points whose measured time lies within the
	// model's 80% interval [Low, High]; Inside/Points is the interval's
	// coverage. NCCLInside counts them for NCCL's uncalibrated interval
	// (Reference), 0 where it has no model.
	Inside, NCCLInside int
	// Predicted is the calibrated model's prediction at each of the
	// table's sizes, and Measured the table's time there, s.
	Predicted []predict.Prediction
	Measured  []float64
	// Tuned reports that the table ran NCCL's own choices, and Rules are
	// the choices of the model's over NCCL's own that commlab tune,
	// calibrated as for this score, decides at the table's sizes, taken
	// or withheld (tuneRules).
	Tuned bool
	Rules []Rule
}

// A Rule is a choice of the model's over NCCL's own that commlab tune
// decides for a held-out table's communicator and collective at one of its
// sizes (predict.Machine.TunerPlan; its rule written unless Withheld), with
// the time the table, run with NCCL's own choices, measured there (the
// faster of its out-of-place and in-place times), s.
type Rule struct {
	Choice   predict.TunerChoice
	Measured float64
}

// Refuted reports that the model predicts the rule's choice no faster
// than NCCL's own choice ran on the held-out table: by the model's own
// estimate, the rule would slow the job.
func (r Rule) Refuted() bool { return r.Choice.Ours.Time >= r.Measured }

// Unsettled reports that the held-out table's time for NCCL's own choice
// lies within the rule's 80% interval or below it: the measurement does
// not show the choice's gain beyond the interval that tune's rules ask of
// the model's times.
func (r Rule) Unsettled() bool { return r.Choice.Ours.High >= r.Measured }

// tuneRules returns the Rules of held on m, and whether tune decides any
// there (Score.Tuned): none unless held ran NCCL's own
// choices (no NCCL_ALGO or NCCL_PROTO but the exclusions every
// calibration table ran with, no tuner plugin) on more than one rank, of
// a collective NCCL's tuner serves, under NCCL.
func tuneRules(m *predict.Machine, held *predict.Table) (rules []Rule, tuned bool, err error) {
	ex := m.TunerExclusions()
	if _, err := nccl.FuncOf(held.Collective); err != nil || held.Ranks() < 2 || m.RunsRCCL() ||
		!strings.EqualFold(held.Algo, ex.Algo) || !strings.EqualFold(held.Proto, ex.Proto) || held.Evidence.TunerPlugin.Known() {
		return nil, false, nil
	}
	var sizes []float64
	for _, p := range held.Points {
		if len(sizes) == 0 || p.Size > sizes[len(sizes)-1] {
			sizes = append(sizes, p.Size)
		}
	}
	// The layout of the held run, as its predictions take it (tune's -g,
	// -threads and -graph).
	_, choices, err := m.TunerPlan([]commmodel.Collective{held.Collective}, []predict.Comm{{Nodes: held.Nodes, PerNode: held.PerNode}}, held.Query().Layout, sizes)
	if err != nil {
		return nil, false, fmt.Errorf("predict: %s: %w", held.Name, err)
	}
	for _, ch := range choices {
		k := slices.IndexFunc(held.Points, func(p predict.Point) bool { return p.Size == ch.Size })
		if k < 0 {
			continue
		}
		rules = append(rules, Rule{ch, held.Points[k].Fastest()})
	}
	return rules, true, nil
}

// Coverage returns the share of the table's points inside the model's
// interval.
func (s Score) Coverage() float64 { return float64(s.Inside) / float64(s.Points) }

// Coverage returns the share of all the scores' points inside the model's
// interval: every point counts once, whatever its table.
func Coverage(scores []Score) float64 {
	var inside, points int
	for _, s := range scores {
		inside, points = inside+s.Inside, points+s.Points
	}
	return float64(inside) / float64(points)
}

// LeaveOneOut scores every table by calibrating on the others and
// predicting it (HeldOut). A table is never in the calibration that
// predicts it, nor in the refits behind the interval's spread.
func LeaveOneOut(h predict.Hardware, tables []predict.Table, s *predict.Settings) ([]Score, error) {
	return leaveOneOut(tables, func(calibration, held []predict.Table) ([]Score, error) {
		return HeldOut(h, calibration, held, s)
	})
}

// FromEach scores every table by calibrating on it alone and predicting
// each of the others (HeldOut): what one table of a machine, the commonest
// thing a user has, says of the machine's other runs. The scores come in
// order of the calibration table, then of the held-out one.
func FromEach(h predict.Hardware, tables []predict.Table, s *predict.Settings) ([]Score, error) {
	return fromEach(tables, func(calibration, held []predict.Table) ([]Score, error) {
		return HeldOut(h, calibration, held, s)
	})
}

// NewUserLeaveOneOut is LeaveOneOut as a user who has only the logs gets
// it (AsNewUser): no description of the machine beyond the tables' own.
func NewUserLeaveOneOut(tables []predict.Table) ([]Score, error) {
	return leaveOneOut(tables, AsNewUser)
}

// NewUserFromEach is FromEach as a user who has only the logs gets it
// (AsNewUser).
func NewUserFromEach(tables []predict.Table) ([]Score, error) {
	return fromEach(tables, AsNewUser)
}

// AsNewUser scores each held table as commlab predicts it for a user who
// gives the calibration tables' logs and the held run's shape, nothing
// more: the machine is what predict.Describe makes of the tables' GPU name,
// with what the tables say of it for the held run's GPUs a host
// (Hardware.FromTables), and the model is calibrated on them (HeldOut).
// Each interval holds the guesses' predictions, as commlab predict's does
// (predict.HoldGuesses).
func AsNewUser(calibration, held []predict.Table) ([]Score, error) {
	if len(calibration) == 0 {
		return nil, errors.New("predict: no calibration table")
	}
	base, err := predict.Describe(calibration[0].GPU, "")
	if err != nil {
		return nil, err
	}
	// The description, and so the calibration, depends on the held run
	// only through its GPUs a host.
	type calibrated struct {
		h    predict.Hardware
		m    *predict.Machine
		base commmodel.Link
	}
	byHost := map[int]*calibrated{}
	out := make([]Score, 0, len(held))
	for i := range held {
		c := byHost[held[i].PerNode]
		if c == nil {
			h, _ := base.FromTables(calibration, held[i].PerNode)
			m, b, err := calibrate(h, calibration, nil)
			if err != nil {
				return nil, err
			}
			c = &calibrated{h, m, b}
			byHost[held[i].PerNode] = c
		}
		sc, err := score(c.h, c.m, c.base, &held[i])
		if err != nil {
			return nil, err
		}
		if err := sc.holdGuesses(c.h, calibration, &held[i]); err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, nil
}

// FromName scores each table as commlab predicts it for a user who gives
// only the GPU's name as the table's log prints it and the run's shape, no
// table: predict.Untabled on what predict.Describe makes of the name, for
// hosts of the table's GPUs a node, each interval holding the guesses'
// predictions (predict.HoldGuesses). The one-link baseline, which needs a
// table, is NaN.
func FromName(tables []predict.Table) ([]Score, error) {
	out := make([]Score, 0, len(tables))
	for i := range tables {
		t := &tables[i]
		h, err := predict.Describe(t.GPU, "")
		if err != nil {
			return nil, fmt.Errorf("predict: %s: %w", t.Name, err)
		}
		h = h.ForHosts(t.PerNode)
		sizes := make([]float64, len(t.Points))
		for j, p := range t.Points {
			sizes[j] = p.Size
		}
		preds, _, err := predict.Untabled(h, t.Query(), sizes)
		if err != nil {
			return nil, fmt.Errorf("predict: %s: %w", t.Name, err)
		}
		gs, err := predict.Guesses(h, nil, t.Query(), sizes)
		if err != nil {
			return nil, fmt.Errorf("predict: %s: %w", t.Name, err)
		}
		preds = predict.HoldGuesses(preds, gs)
		sc := Score{Table: t.Name, Points: len(sizes), Predicted: preds, Measured: make([]float64, len(sizes)),
			Baseline: Errors{math.NaN(), math.NaN()}, NCCL: Errors{math.NaN(), math.NaN()}}
		var all, large []float64
		for j, p := range t.Points {
			sc.Measured[j] = p.Time
			if preds[j].Holds(p.Time) {
				sc.Inside++
			}
			r := math.Abs(preds[j].Time/p.Time - 1)
			all = append(all, r)
			if p.Size >= LargeSize {
				large = append(large, r)
				sc.Large++
			}
		}
		sc.Model = Errors{All: fit.Median(all), Large: fit.Median(large)}
		out = append(out, sc)
	}
	return out, nil
}

// holdGuesses widens s's intervals, the prediction of held from a
// calibration on tables on h, to hold the guesses' predictions
// (predict.HoldGuesses), and counts again the points they hold.
func (s *Score) holdGuesses(h predict.Hardware, tables []predict.Table, held *predict.Table) error {
	sizes := make([]float64, len(s.Predicted))
	for i, p := range s.Predicted {
		sizes[i] = p.Size
	}
	gs, err := predict.Guesses(h, tables, held.Query(), sizes)
	if err != nil {
		return fmt.Errorf("predict: %s: %w", held.Name, err)
	}
	s.Predicted, s.Inside = predict.HoldGuesses(s.Predicted, gs), 0
	for i, p := range s.Predicted {
		if p.Holds(s.Measured[i]) {
			s.Inside++
		}
	}
	return nil
}

// A scorer scores the held tables against a calibration on the others.
type scorer func(calibration, held []predict.Table) ([]Score, error)

// leaveOneOut holds out each table in turn and scores it with score.
func leaveOneOut(tables []predict.Table, score scorer) ([]Score, error) {
	out := make([]Score, 0, len(tables))
	for i := range tables {
		sc, err := score(slices.Concat(tables[:i], tables[i+1:]), tables[i:i+1])
		if err != nil {
			return nil, fmt.Errorf("predict: without %s: %w", tables[i].Name, err)
		}
		out = append(out, sc...)
	}
	return out, nil
}

// fromEach calibrates on each table alone and scores the others with
// score.
func fromEach(tables []predict.Table, score scorer) ([]Score, error) {
	var out []Score
	for i := range tables {
		sc, err := score(tables[i:i+1], slices.Concat(tables[:i], tables[i+1:]))
		if err != nil {
			return nil, fmt.Errorf("predict: from %s: %w", tables[i].Name, err)
		}
		out = append(out, sc...)
	}
	return out, nil
}

// HeldOut scores each of the held tables against the models calibrated on
// the calibration tables: Calibrate, and the one-link baseline on the same
// tables where they hold its two points (else its errors are NaN); NCCL's
// model needs no calibration.
func HeldOut(h predict.Hardware, calibration, held []predict.Table, s *predict.Settings) ([]Score, error) {
	m, base, err := calibrate(h, calibration, s)
	if err != nil {
		return nil, err
	}
	out := make([]Score, 0, len(held))
	for i := range held {
		sc, err := score(h, m, base, &held[i])
		if err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, nil
}

// calibrate calibrates the model and the one-link baseline on the
// calibration tables. Too few points for the baseline's two parameters
// leave it out (a Link that times everything NaN, so its errors are NaN).
func calibrate(h predict.Hardware, calibration []predict.Table, s *predict.Settings) (*predict.Machine, commmodel.Link, error) {
	m, err := predict.Calibrate(h, calibration, s)
	if err != nil {
		return nil, commmodel.Link{}, err
	}
	base, err := FitBaseline(calibration)
	if errors.Is(err, predict.ErrTooFew) {
		base = commmodel.Link{}
	} else if err != nil {
		return nil, commmodel.Link{}, fmt.Errorf("predict: baseline: %w", err)
	}
	return m, base, nil
}

// score compares the three models with held's measurements.
func score(h predict.Hardware, m *predict.Machine, base commmodel.Link, held *predict.Table) (Score, error) {
	sizes := make([]float64, len(held.Points))
	for i, p := range held.Points {
		sizes[i] = p.Size
	}
	q := held.Query()
	ours, err := m.Predict(q, sizes)
	if err != nil {
		return Score{}, fmt.Errorf("predict: %s: %w", held.Name, err)
	}
	ref, refErr := predict.Reference(h, q, sizes)
	sc := Score{Table: held.Name, Points: len(sizes), Predicted: ours, Measured: make([]float64, len(sizes))}
	var e [3][2][]float64
	for i, p := range held.Points {
		large := 0
		if p.Size >= LargeSize {
			large = 1
			sc.Large++
		}
		if ours[i].Holds(p.Time) {
			sc.Inside++
		}
		sc.Measured[i] = p.Time
		preds := [3]float64{ours[i].Time, BaselineTime(base, held, p.Size), math.NaN()}
		if refErr == nil {
			preds[2] = ref[i].Time
			if ref[i].Holds(p.Time) {
				sc.NCCLInside++
			}
		}
		for k, v := range preds {
			if math.IsNaN(v) {
				continue
			}
			r := math.Abs(v/p.Time - 1)
			e[k][0] = append(e[k][0], r)
			if large == 1 {
				e[k][1] = append(e[k][1], r)
			}
		}
	}
	errs := func(k int) Errors {
		return Errors{All: fit.Median(e[k][0]), Large: fit.Median(e[k][1])}
	}
	sc.Model, sc.Baseline, sc.NCCL = errs(0), errs(1), errs(2)
	if sc.Rules, sc.Tuned, err = tuneRules(m, held); err != nil {
		return Score{}, err
	}
	return sc, nil
}

// baselineAlgorithm is the ring algorithm of c in the article's model:
// commmodel's first algorithm of c (Ring, RingReduceScatter, RingAllGather,
// PipelinedBroadcast, Shift), and for AllToAll the ring-shift Pairwise.
func baselineAlgorithm(c commmodel.Collective) commmodel.Algorithm {
	if c == commmodel.AllToAll {
		return commmodel.Pairwise{}
	}
	return commmodel.Algorithms(c)[0]
}

// BaselineTime is the one-link model's time of size bytes of t's collective
// over its ranks: Steps·α + Bytes/BW of its ring algorithm on l.
func BaselineTime(l commmodel.Link, t *predict.Table, size float64) float64 {
	return baselineAlgorithm(t.Collective).Cost(t.Ranks(), size).Time(l)
}

// FitBaseline fits the article's model, T = Steps·α + Bytes/BW with one
// Link, jointly over tables: each table through its ring algorithm
// (BaselineTime) at its rank count. Like fit.Through it minimises relative
// error, which is linear in (α, 1/BW), here with every table weighing the
// same (1/n_t per point) and Huber reweighting (threshold 5%); α >= 0 and
// BW > 0 by an active set.
func FitBaseline(tables []predict.Table) (commmodel.Link, error) {
	type row struct{ u, v, w float64 }
	var rows []row
	for i := range tables {
		t := &tables[i]
		a := baselineAlgorithm(t.Collective)
		for _, p := range t.Points {
			c := a.Cost(t.Ranks(), p.Size)
			rows = append(rows, row{float64(c.Steps) / p.Time, c.Path() / p.Time, 1 / float64(len(t.Points))})
		}
	}
	if len(rows) < 2 {
		return commmodel.Link{}, fmt.Errorf("%w: %d points for the baseline's 2 parameters", predict.ErrTooFew, len(rows))
	}
	// Scale the regressors so that the 2x2 system is well conditioned.
	su, sv := 0.0, 0.0
	for _, r := range rows {
		su, sv = max(su, r.u), max(sv, r.v)
	}
	var alpha, beta float64 // α and 1/BW, scaled
	w := make([]float64, len(rows))
	for i := range w {
		w[i] = rows[i].w
	}
	for iter := 0; iter < 20; iter++ {
		var uu, uv, vv, u1, v1 float64
		for i, r := range rows {
			u, v := r.u/su, r.v/sv
			uu += w[i] * u * u
			uv += w[i] * u * v
			vv += w[i] * v * v
			u1 += w[i] * u
			v1 += w[i] * v
		}
		det := uu*vv - uv*uv
		a, b := (u1*vv-v1*uv)/det, (uu*v1-uv*u1)/det
		if !(det > 1e-12*uu*vv) || a < 0 || b <= 0 {
			// One of the two at its bound: the one-parameter fit that
			// leaves the smaller residual (Σw − u1²/uu against Σw − v1²/vv),
			// with BW at a cap a thousand times the largest Bytes/t.
			a, b = 0, v1/vv
			if u1*u1/uu > v1*v1/vv {
				a, b = u1/uu, 1e-3
			}
		}
		alpha, beta = a, b
		for i, r := range rows {
			res := alpha*r.u/su + beta*r.v/sv - 1
			w[i] = r.w * fit.Huber.Weight(res, 0.05)
		}
	}
	l := commmodel.Link{Alpha: alpha / su, BW: sv / beta}
	if !l.Valid() {
		return commmodel.Link{}, fmt.Errorf("predict: baseline fit gave α %g s, BW %g B/s", l.Alpha, l.BW)
	}
	return l, nil
}
