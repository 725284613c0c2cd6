package topo

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/internal/parseerr"
)

// CPURange is an inclusive range of logical CPU numbers, First <= Last.
type CPURange struct {
	First, Last int
}

// CPUList is a set of logical CPUs written as Linux cpulist text
// ("0-47,96-143"). It is kept sorted with overlapping and adjacent ranges
// merged, so two lists naming the same CPUs are equal. A nil list means the
// affinity is unknown.
type CPUList []CPURange

// ErrCPUList is the cause of a ParseError on a malformed CPU affinity list.
var ErrCPUList = errors.New("malformed CPU list (want ranges such as 0-47,96-143)")

// maxCPU bounds CPU numbers so that a hostile list cannot ask Count or
// iteration for absurd work; Linux's default NR_CPUS limit is far below it.
const maxCPU = 1 << 20

// ParseCPUList reads Linux cpulist text: comma-separated numbers and
// inclusive ranges a-b, in any order. "N/A" and the empty string give a nil
// list and no error.
func ParseCPUList(s string) (CPUList, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "N/A") {
		return nil, nil
	}
	var l CPUList
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := parseCPU(lo)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", parseerr.Excerpt(s), ErrCPUList)
		}
		b := a
		if isRange {
			if b, err = parseCPU(hi); err != nil || b < a {
				return nil, fmt.Errorf("%q: %w", parseerr.Excerpt(s), ErrCPUList)
			}
		}
		l = append(l, CPURange{a, b})
	}
	return l.normalize(), nil
}

func parseCPU(s string) (int, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, ErrCPUList
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > maxCPU {
		return 0, ErrCPUList
	}
	return n, nil
}

// MustCPUList is ParseCPUList for literals in presets and tests; it panics on
// malformed text.
func MustCPUList(s string) CPUList {
	l, err := ParseCPUList(s)
	if err != nil {
		panic("topo: " + err.Error())
	}
	return l
}

// normalize sorts the ranges and merges those that overlap or touch.
func (l CPUList) normalize() CPUList {
	if len(l) == 0 {
		return nil
	}
	slices.SortFunc(l, func(a, b CPURange) int { return a.First - b.First })
	out := l[:1]
	for _, r := range l[1:] {
		last := &out[len(out)-1]
		if r.First <= last.Last+1 {
			last.Last = max(last.Last, r.Last)
			continue
		}
		out = append(out, r)
	}
	return out
}

// String writes the list as cpulist text, "" for a nil list.
func (l CPUList) String() string {
	var b strings.Builder
	for i, r := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(r.First))
		if r.Last != r.First {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(r.Last))
		}
	}
	return b.String()
}

// MarshalText encodes the list as cpulist text.
func (l CPUList) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Count returns the number of CPUs in the list.
func (l CPUList) Count() int {
	n := 0
	for _, r := range l {
		n += r.Last - r.First + 1
	}
	return n
}

// Contains reports whether CPU c is in the list.
func (l CPUList) Contains(c int) bool {
	for _, r := range l {
		if c >= r.First && c <= r.Last {
			return true
		}
	}
	return false
}

// Equal reports whether two lists name the same CPUs.
func (l CPUList) Equal(m CPUList) bool { return slices.Equal(l, m) }
