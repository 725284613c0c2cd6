package nccltests

import (
	"flag"
	"os"
	"testing"
)

// TestMain bounds the fuzzer's minimising of each new input to 2 s unless
// -fuzzminimizetime is given: Go's minimiser takes time quadratic in an
// input's length, 60 s by default, during which the fuzzer runs nothing
// new (FuzzReader sat at 0 executions a second for most of 30 s).
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.fuzzminimizetime" })
	if f := flag.Lookup("test.fuzzminimizetime"); f != nil && !given {
		f.Value.Set("2s")
	}
	os.Exit(m.Run())
}
