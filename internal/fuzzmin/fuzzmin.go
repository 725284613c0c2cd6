// Package fuzzmin bounds the fuzzer's minimising of each new input, for the
// TestMain of packages with fuzz targets.
package fuzzmin

import (
	"flag"
	"testing"
)

// Bound sets -test.fuzzminimizetime to 2 s unless the command line gives
// it: Go's minimiser takes time quadratic in an input's length, 60 s by
// default, during which the fuzzer runs nothing new (FuzzReader and
// FuzzParse sat at 0 executions a second for most of 30 s). Call it from
// TestMain after flag.Parse.
func Bound() {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.fuzzminimizetime" })
	if f := flag.Lookup("test.fuzzminimizetime"); f != nil && !given {
		f.Value.Set("2s")
	}
}

// Main is a TestMain's body for a package with fuzz targets: it parses the
// flags, bounds the minimising (Bound) and runs the tests, returning the
// exit code for os.Exit.
func Main(m *testing.M) int {
	flag.Parse()
	Bound()
	return m.Run()
}
