// Package words writes lists in the prose commlab's messages use.
package words

import "strings"

// And joins s as a list in words: "a", "a and b", "a, b and c".
func And(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
