package topo

import (
	"bytes"
	"strings"
	"testing"
)

// TestNilTopologyWriters: the writers, which return an error, refuse a nil
// *Topology with one, writing nothing. WriteReport(w, nil) panicked with a
// nil dereference (a red team's report), and so did WriteGPUNICTable and
// Format.
func TestNilTopologyWriters(t *testing.T) {
	for name, write := range map[string]func(*bytes.Buffer) error{
		"WriteReport":      func(b *bytes.Buffer) error { return WriteReport(b, nil) },
		"WriteGPUNICTable": func(b *bytes.Buffer) error { return WriteGPUNICTable(b, nil) },
		"Format":           func(b *bytes.Buffer) error { return Format(b, nil) },
	} {
		var b bytes.Buffer
		err := func() (err error) {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s(w, nil) panicked: %v", name, p)
				}
			}()
			return write(&b)
		}()
		if err == nil || !strings.Contains(err.Error(), "nil") || b.Len() != 0 {
			t.Errorf("%s(w, nil) = %v, writing %q; want an error naming the nil topology and nothing written", name, err, b.String())
		}
	}
}
