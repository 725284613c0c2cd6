package nccl

import (
	"fmt"

	"github.com/inframethod/commlab/units"
)

// String is the estimate in words: "Ring/LL128: 12.3 µs (latency 5 µs,
// 300 GB/s)".
func (e Estimate) String() string {
	return fmt.Sprintf("%s/%s: %s (latency %s, %s)", e.Algo, ProtocolName(e.Proto), units.FormatDuration(e.Time),
		units.FormatDuration(e.Latency), units.FormatBandwidth(e.Bandwidth))
}
