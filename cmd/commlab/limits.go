package main

import (
	"flag"
	"strconv"

	"gonum.org/v1/plot/vg"
)

// Bounds on the flags that size a command's work or memory. Each lies far
// beyond real use; a value past one is a usage error (exit 2) that names it.
const (
	// maxRanks bounds every rank count (-p, -per-node, and -per-node times
	// each of tune's -nodes): 2^20, ten times the largest GPU jobs
	// reported (about 100,000 GPUs).
	maxRanks = 1 << 20
	// maxNodeCounts bounds the length of tune's -nodes list: each count
	// writes a rule set, and a cluster has a few shapes worth tuning.
	maxNodeCounts = 64
	// maxRegimes bounds fit's -regimes: each regime takes two sizes, and a
	// doubling sweep from 1 B to 32 GiB has 36.
	maxRegimes = 32
	// maxDPI bounds plot's -dpi: 1200 is a fine printer's, four times the
	// 300 a paper asks.
	maxDPI = 1200
	// maxSide bounds plot's -width and -height: a poster's 40 inches.
	maxSide = 40 * vg.Inch
	// maxPixels bounds a PNG's width times height in pixels, 256 MB of
	// RGBA: 7 x 4.5 inches at 1200 dpi is 45 million.
	maxPixels = 64_000_000
)

// checkTest returns a usage error unless -test is a test's index, from 0,
// or all where all is true: a negative index was read as a test the file
// lacks (exit 1) where compare's is a usage error.
func checkTest(arg string, all bool) error {
	if all && arg == "all" {
		return nil
	}
	if i, err := strconv.Atoi(arg); err == nil && i >= 0 {
		return nil
	}
	want := "a test's index, counted from 0"
	if all {
		want += ", or all"
	}
	return flagErrorf("-test %s: want %s, such as -test 0", arg, want)
}

// checkRanks is checkCount for -p, the ranks of a collective, which also
// refuses 1: one rank exchanges nothing, and NCCL copies the buffer within
// the GPU, which no model here times (model, crossover and simulate
// printed 0 s rows for it).
func checkRanks(fs *flag.FlagSet, p int, what, example string) error {
	if err := checkCount(fs, "p", p, maxRanks, what, example); err != nil {
		return err
	}
	if p == 1 {
		return flagErrorf("-p 1: one rank exchanges nothing, and the copy NCCL makes within the GPU is not what the model times; give -p 2 or more")
	}
	return nil
}

// checkCount returns a usage error unless 1 <= n <= max for flag name of
// fs: 0, the flags' default, says the flag is needed; the message names
// what the flag counts, with an example of a value that works.
func checkCount(fs *flag.FlagSet, name string, n, max int, what, example string) error {
	switch {
	case n == 0:
		return usageErrorf(fs, "give -%s, %s, such as -%s %s", name, what, name, example)
	case n < 0:
		return usageErrorf(fs, "-%s %d: want %s, such as -%s %s", name, n, what, name, example)
	case n > max:
		return usageErrorf(fs, "-%s %d: above the limit of %d that bounds the work and memory it takes", name, n, max)
	}
	return nil
}
