package topo

import (
	"os"
	"testing"

	"github.com/inframethod/commlab/internal/fuzzmin"
)

// TestMain bounds the fuzzer's minimising of each new input (fuzzmin.Bound).
func TestMain(m *testing.M) { os.Exit(fuzzmin.Main(m)) }
