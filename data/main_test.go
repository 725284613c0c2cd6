package data

import (
	"flag"
	"os"
	"testing"

	"github.com/inframethod/commlab/internal/fuzzmin"
)

// TestMain bounds the fuzzer's minimising of each new input (fuzzmin.Bound).
func TestMain(m *testing.M) {
	flag.Parse()
	fuzzmin.Bound()
	os.Exit(m.Run())
}
