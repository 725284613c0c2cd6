package main

import (
	"github.com/inframethod/commlab/units"
)

// sizeFlag reads the text of flag -name, a size in the grammar of package
// units ("8GiB", "16GB", "4e9": a bare number is bytes), or returns def when
// the flag was not given.
func sizeFlag(name, text string, def int64) (int64, error) {
	if text == "" {
		return def, nil
	}
	n, err := units.ParseSize(text)
	if err != nil {
		return 0, flagErrorf("-%s: %w", name, err)
	}
	return n, nil
}

// sizesFlag reads -size: a list of sizes and ranges (units.ParseSizes), as
// the float64 bytes of commlab's APIs; hint is an example that works.
func sizesFlag(text, hint string) ([]float64, error) {
	if text == "" {
		return nil, flagErrorf("need -size, such as -size %s", hint)
	}
	ns, err := units.ParseSizes(text)
	if err != nil {
		return nil, flagErrorf("-size: %w", err)
	}
	out := make([]float64, len(ns))
	for i, n := range ns {
		out[i] = float64(n)
	}
	return out, nil
}
