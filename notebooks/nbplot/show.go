package nbplot

import "github.com/janpfeifer/gonb/gonbui"

// PNGer is anything that renders to PNG bytes: Figure, RegimeMap.
type PNGer interface {
	PNG() ([]byte, error)
}

// Show renders f and displays it as an image/png output of the current GoNB
// cell. Outside a GoNB kernel the image goes nowhere.
func Show(f PNGer) error {
	b, err := f.PNG()
	if err != nil {
		return err
	}
	gonbui.DisplayPng(b)
	return nil
}

// ShowTable displays t as a text/markdown output of the current GoNB cell.
func ShowTable(t Table) {
	gonbui.DisplayMarkdown(t.Markdown())
}
