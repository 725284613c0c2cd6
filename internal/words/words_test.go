package words

import "testing"

// TestAnd: the list forms of English prose, with no Oxford comma, as the
// messages print them.
func TestAnd(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"},
	} {
		if got := And(c.in); got != c.want {
			t.Errorf("And(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
