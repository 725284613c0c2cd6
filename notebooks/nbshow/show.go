// Package nbshow displays commlab's figures and tables in a GoNB notebook.
// It is the only package that imports GoNB: the figures and tables
// themselves are package figure's, which the command line uses without the
// notebook kernel.
package nbshow

import (
	"github.com/go-gota/gota/dataframe"
	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/inframethod/commlab/figure"
)

// Show renders f and displays it as an image/png output of the current GoNB
// cell. Outside a GoNB kernel the image goes nowhere.
//
// It waits until GoNB has the image (gonbui.Sync): display data travels over
// a pipe, and without the wait a cell that ends right after showing can lose
// its output under nbconvert.
func Show(f figure.PNGer) error {
	b, err := f.PNG()
	if err != nil {
		return err
	}
	gonbui.DisplayPng(b)
	gonbui.Sync()
	return nil
}

// ShowTable displays t in the current GoNB cell as an HTML table
// (text/html, which every notebook front end renders), with its padded
// Markdown as the text/markdown and text/plain alternatives, and waits for
// GoNB to have it, as Show does.
func ShowTable(t figure.Table) {
	if !gonbui.IsNotebook {
		return
	}
	md := t.Markdown()
	gonbui.SendData(&protocol.DisplayData{Data: map[protocol.MIMEType]any{
		protocol.MIMETextHTML:     t.HTML(),
		protocol.MIMETextMarkdown: md,
		protocol.MIMETextPlain:    md,
	}})
	gonbui.Sync()
}

// ShowFrame displays df as a table (figure.FrameTable, ShowTable) in the
// current GoNB cell, in place of printing the frame; it returns the frame's
// error.
func ShowFrame(df dataframe.DataFrame) error {
	t, err := figure.FrameTable(df)
	if err != nil {
		return err
	}
	ShowTable(t)
	return nil
}
