// Package words writes lists in the prose commlab's messages use.
package words

import (
	"strconv"
	"strings"
)

// And joins s as a list in words: "a", "a and b", "a, b and c".
func And(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Count is n and its noun, one for 1 and many otherwise: "1 rank", "2
// ranks".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Verb is one for n of 1, many otherwise: "is" or "are".
func Verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
