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

// TestCount: the singular for 1 alone, 0 counts as many.
func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 ranks"}, {1, "1 rank"}, {2, "2 ranks"}} {
		if got := Count(c.n, "rank", "ranks"); got != c.want {
			t.Errorf("Count(%d): %q, want %q", c.n, got, c.want)
		}
	}
	if Verb(1, "is", "are") != "is" || Verb(3, "is", "are") != "are" {
		t.Error("Verb: want is for 1, are for 3")
	}
}
