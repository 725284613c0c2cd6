package nbshow

import (
	"errors"
	"testing"

	"github.com/go-gota/gota/dataframe"
)

// failingPNG is a figure that cannot be drawn.
type failingPNG struct{}

func (failingPNG) PNG() ([]byte, error) { return nil, errors.New("cannot draw") }

// Show and ShowFrame hand back what stops them from displaying: the
// figure's rendering error, the frame's error.
func TestShowErrors(t *testing.T) {
	if err := Show(failingPNG{}); err == nil || err.Error() != "cannot draw" {
		t.Errorf("Show of a figure that cannot be drawn: err %v, want cannot draw", err)
	}
	bad := dataframe.DataFrame{Err: errors.New("broken")}
	if err := ShowFrame(bad); err == nil || err.Error() != "broken" {
		t.Errorf("ShowFrame of a frame with an error: err %v, want broken", err)
	}
}
