package commmodel

import (
	"fmt"

	"github.com/inframethod/commlab/units"
)

// String is the link as the command line takes it: "2 µs, 350 GB/s", with
// the reduction and injection costs when they are not zero.
func (l Link) String() string {
	s := units.FormatDuration(l.Alpha) + ", " + units.FormatBandwidth(l.BW)
	if l.Gamma != 0 {
		s += ", reduce " + units.FormatTimePerByte(l.Gamma)
	}
	if l.Overhead != 0 {
		s += ", " + units.FormatDuration(l.Overhead) + " a message"
	}
	return s
}

// String is the cost in words: "14 steps, 1.75 MiB sent, 2 peers".
func (c Cost) String() string {
	return fmt.Sprintf("%d steps, %s sent, %d peers", c.Steps, units.FormatSize(c.Bytes), c.Peers)
}

// String is "one-shot -> two-shot at 130 KiB": A is faster below the size.
func (x Crossover) String() string {
	return fmt.Sprintf("%s -> %s at %s", x.A.Name(), x.B.Name(), units.FormatSize(x.Size))
}
