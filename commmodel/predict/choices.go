package predict

import (
	"fmt"
	"slices"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// Choices returns the calibrated time of q at size bytes for every
// algorithm and protocol NCCL can run it with (q's own pins are replaced),
// fastest first. AllToAll, which NCCL runs outside its tuner, is an error.
func (m *Machine) Choices(q Query, size float64) ([]Prediction, error) {
	if q.Collective == commmodel.AllToAll {
		return nil, fmt.Errorf("predict: alltoall runs as grouped sends, outside NCCL's algorithms and protocols")
	}
	var out []Prediction
	for a := range nccl.Algo(nccl.NumAlgos) {
		for p := range nccl.Protocol(nccl.NumProtocols) {
			pq := q
			pq.Algo, pq.Proto = a.String(), nccl.ProtocolName(p)
			ps, err := m.Predict(pq, []float64{size})
			if err != nil {
				continue // not available to this shape, version or collective
			}
			out = append(out, ps[0])
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("predict: no algorithm and protocol can run %v on %d ranks", q.Collective, q.Ranks)
	}
	slices.SortStableFunc(out, func(x, y Prediction) int {
		switch {
		case x.Time < y.Time:
			return -1
		case x.Time > y.Time:
			return 1
		}
		return 0
	})
	return out, nil
}
