package topo

import (
	"regexp"
	"strings"
)

// Pasted `nvidia-smi topo -m` output sometimes loses the separator between
// two columns, so that two words run together: a header "NIC7NIC8" or
// "GPU0GPU1...GPU7mlx5_0", cells "SYSSYS" or "PXBSYS" (NVIDIA/nccl-tests#311,
// a ShARC DGX-1 training page; fixtures in testdata/real). A human reads such
// a word as the words it is made of; so does the parser, when the whole word
// splits into known words: device labels of the matrix's rows for the header,
// path cells for a row.

// gluedGPUs matches a header's first word made of two or more GPU labels run
// together ("GPU0GPU1GPU2..."), possibly followed by more names.
var gluedGPUs = regexp.MustCompile(`^GPU[0-9]+GPU[0-9]+`)

// splitGlued splits f into the words it is made of, using wordLen to find the
// length in bytes of the word that starts a string (0 if none does). It
// returns nil unless all of f splits, into two words or more.
func splitGlued(f field, wordLen func(s string) int) []field {
	var out []field
	for k := 0; k < len(f.text); {
		n := wordLen(f.text[k:])
		if n == 0 {
			return nil
		}
		sep := ""
		if k == 0 {
			sep = f.sep
		}
		out = append(out, field{
			text: f.text[k : k+n],
			off:  f.off + k,
			sep:  sep,
		})
		k += n
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// pathWords are the fixed matrix cells, for pathWordLen. No word is a prefix
// of another, so a run of them splits one way only.
var pathWords = []string{"X", "PIX", "PXB", "PHB", "NODE", "SYS", "SOC", "N/A"}

// pathWordLen returns the length of the path cell (X, NV#, PIX, PXB, PHB,
// NODE, SYS, SOC or N/A, any case) that s starts with, 0 if none. The link
// count of NV# takes every digit that follows: no cell starts with a digit.
func pathWordLen(s string) int {
	u := strings.ToUpper(s)
	for _, w := range pathWords {
		if strings.HasPrefix(u, w) {
			return len(w)
		}
	}
	if strings.HasPrefix(u, "NV") {
		n := 2
		for n < len(u) && u[n] >= '0' && u[n] <= '9' {
			n++
		}
		if n > 2 && u[2] != '0' {
			return n
		}
	}
	return 0
}

// splitGluedFields returns fs with every field from index from on that is not
// a word by itself (whole) but words run together split into those words.
func splitGluedFields(fs []field, from int, whole func(string) bool, wordLen func(string) int) []field {
	var out []field
	for i, f := range fs {
		if i >= from && !whole(f.text) {
			if parts := splitGlued(f, wordLen); parts != nil {
				if out == nil {
					out = append(out, fs[:i]...)
				}
				out = append(out, parts...)
				continue
			}
		}
		if out != nil {
			out = append(out, f)
		}
	}
	if out == nil {
		return fs
	}
	return out
}

// splitGluedCells splits a row's run-together path cells (after its label),
// unless that gives the row more than columns cells: then the word was a typo
// ("PIXX" in a two-column matrix), and the row is returned as it is, for the
// error to name the word.
func splitGluedCells(fs []field, columns int) []field {
	g := splitGluedFields(fs, 1, isPathWord, pathWordLen)
	if len(g) == len(fs) {
		return fs
	}
	cells := 0
	for cells+1 < len(g) && isPathWord(g[cells+1].text) {
		cells++
	}
	if cells > columns {
		return fs
	}
	return g
}

// isPathWord reports whether s is one path cell, as pathWordLen reads them
// (cheaper than ParsePath, which builds an error for every non-cell).
func isPathWord(s string) bool { return s != "" && pathWordLen(s) == len(s) }

// splitGluedHeader splits the header's run-together row labels. Of two labels
// that both start a word (GPU1, GPU10) the longer is taken: labels start with
// a letter, so a label's digits never belong to the next one.
func splitGluedHeader(head []field, labels map[string]bool) []field {
	labelLen := func(s string) int {
		best := 0
		for l := range labels {
			if len(l) > best && strings.HasPrefix(s, l) {
				best = len(l)
			}
		}
		return best
	}
	return splitGluedFields(head, 0, func(s string) bool { return labels[s] }, labelLen)
}
