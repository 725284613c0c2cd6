package predict

import (
	"fmt"
	"strings"

	"github.com/inframethod/commlab/units"
)

// String is the prediction in words: "1 MiB: 79 µs, 80% in [56.5 µs,
// 116 µs], Tree/LL128".
func (p Prediction) String() string {
	return fmt.Sprintf("%s: %s, 80%% in [%s, %s], %s/%s", units.FormatSize(p.Size), units.FormatDuration(p.Time),
		units.FormatDuration(p.Low), units.FormatDuration(p.High), p.Algorithm, p.Protocol)
}

// String is "intra_bw = 350 GB/s (prior 300 GB/s, identified)".
func (p Param) String() string {
	how := "identified"
	switch {
	case !p.Used:
		how = "unused"
	case !p.Identified:
		how = "not identified"
	}
	return fmt.Sprintf("%s = %s (prior %s, %s)", p.Name, FormatParam(p.Name, p.Unit, p.Value), FormatParam(p.Name, p.Unit, p.Prior), how)
}

// String is the finding in words: "64 KiB..256 KiB: slower than its
// smaller siblings, 3.4x the model, network; NCCL runs Ring/LL", then the
// advice, one a line.
func (f Finding) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s..%s: %s, %.2fx the model", units.FormatSize(f.FromBytes), units.FormatSize(f.ToBytes), f.Kind, f.MeasuredOverModel)
	if f.Term != "" {
		b.WriteString(", " + f.Term)
	}
	if f.NCCL != "" {
		b.WriteString("; NCCL runs " + f.NCCL)
	}
	for _, a := range f.Advice {
		b.WriteString("\n  try: " + a)
	}
	return b.String()
}
