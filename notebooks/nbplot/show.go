package nbplot

import (
	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
)

// PNGer is anything that renders to PNG bytes: Figure, RegimeMap.
type PNGer interface {
	PNG() ([]byte, error)
}

// Show renders f and displays it as an image/png output of the current GoNB
// cell. Outside a GoNB kernel the image goes nowhere.
//
// It waits until GoNB has the image (gonbui.Sync): display data travels over
// a pipe, and without the wait a cell that ends right after showing can lose
// its output under nbconvert.
func Show(f PNGer) error {
	b, err := f.PNG()
	if err != nil {
		return err
	}
	gonbui.DisplayPng(b)
	gonbui.Sync()
	return nil
}

// ShowTable displays t as a text/markdown output of the current GoNB cell,
// with the same padded Markdown as its text/plain alternative for viewers
// that do not render Markdown, and waits for GoNB to have it, as Show does.
func ShowTable(t Table) {
	if !gonbui.IsNotebook {
		return
	}
	md := t.Markdown()
	gonbui.SendData(&protocol.DisplayData{Data: map[protocol.MIMEType]any{
		protocol.MIMETextMarkdown: md,
		protocol.MIMETextPlain:    md,
	}})
	gonbui.Sync()
}
