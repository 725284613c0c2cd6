package commmodel

import (
	"fmt"
	"slices"
	"strings"
)

// Collective names a collective operation.
type Collective int

// The collectives the model knows.
const (
	AllReduce Collective = iota
	ReduceScatter
	AllGather
	Broadcast
	AllToAll
	SendRecv
)

var collectiveNames = [...]string{
	AllReduce:     "allreduce",
	ReduceScatter: "reducescatter",
	AllGather:     "allgather",
	Broadcast:     "broadcast",
	AllToAll:      "alltoall",
	SendRecv:      "sendrecv",
}

// String returns the collective's name in lower case, as the CLI spells it.
func (c Collective) String() string { return nameOf(collectiveNames[:], int(c), "Collective") }

// nameOf returns names[i], the name of value i of an enumeration, or
// kind(i) for a value outside it.
func nameOf(names []string, i int, kind string) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("%s(%d)", kind, i)
	}
	return names[i]
}

// Collectives lists every collective in a fixed order.
func Collectives() []Collective {
	return []Collective{AllReduce, ReduceScatter, AllGather, Broadcast, AllToAll, SendRecv}
}

// ParseCollective reads a collective's name. It ignores case, '_' and '-', and
// accepts the nccl-tests binary stems (all_reduce, reduce_scatter, all_gather,
// alltoall, broadcast, sendrecv).
func ParseCollective(s string) (Collective, error) {
	key := strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(s))
	if c := slices.Index(collectiveNames[:], key); c >= 0 {
		return Collective(c), nil
	}
	return 0, fmt.Errorf("unknown collective %q (want one of %s)", s, CollectiveNames())
}

// CollectiveNames lists the collectives' names as the CLI spells them, in
// the order of Collectives, separated by ", ".
func CollectiveNames() string { return strings.Join(collectiveNames[:], ", ") }

// BusFactor is the ratio of bus bandwidth to algorithm bandwidth that
// nccl-tests applies to a collective over p ranks:
//
//	AllReduce                          2(p-1)/p
//	ReduceScatter, AllGather, AllToAll (p-1)/p
//	Broadcast, SendRecv                1
//
// busBW = algBW · BusFactor, algBW = S / T. It panics if p < 1.
func (c Collective) BusFactor(p int) float64 {
	mustRanks(p)
	n := float64(p)
	switch c {
	case AllReduce:
		return 2 * (n - 1) / n
	case ReduceScatter, AllGather, AllToAll:
		return (n - 1) / n
	default:
		return 1
	}
}

// BusBW converts a measurement of size bytes in t seconds to nccl-tests' bus
// bandwidth over p ranks, in bytes per second.
func (c Collective) BusBW(p int, size, t float64) float64 {
	return size / t * c.BusFactor(p)
}

// AlgBW converts a bus bandwidth over p ranks back to algorithm bandwidth, S/T.
func (c Collective) AlgBW(p int, busBW float64) float64 {
	return busBW / c.BusFactor(p)
}

// An Algorithm is one way to run a collective. Cost reports what it asks of the
// busiest rank for p ranks and a message of size bytes (S in the package notation).
// Cost panics if p < 1 and gives NaN bytes for a negative or NaN size, and
// for more than 2^60 ranks or chunks, whose steps an int does not count.
type Algorithm interface {
	// Name is the algorithm's name as the CLI spells it: ring, halving-doubling, ...
	Name() string
	// Collective is the operation the algorithm performs.
	Collective() Collective
	// Cost is the busiest rank's steps, bytes and peers.
	Cost(p int, size float64) Cost
}

// Time returns how long a runs for p ranks and size bytes on l, in seconds:
// Flat{p, l}.Time(a, size), whose body is the switch over the algorithms.
// It is NaN where a's time is not defined (Timer), as for more than 2^60
// ranks.
func Time(a Algorithm, p int, size float64, l Link) float64 { return Flat{p, l}.Time(a, size) }

// mustRanks panics if p < 1. It is small enough to inline: the panic value
// is a ranksError, whose message is built only if printed.
func mustRanks(p int) {
	if p < 1 {
		panic(ranksError(p))
	}
}

// ranksError is the panic of a rank count below 1.
type ranksError int

func (e ranksError) Error() string {
	return fmt.Sprintf("commmodel: %d ranks; need at least 1", int(e))
}
