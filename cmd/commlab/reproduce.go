package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/inframethod/commlab/article"
	"github.com/inframethod/commlab/figure"
)

func init() {
	register("reproduce", "write every notebook table (Markdown) and figure (PNG) into a folder, with an index", runReproduce)
}

// reproduceFile is one written exhibit.
type reproduceFile struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Path  string `json:"path"`
	Kind  string `json:"kind"` // "table" or "figure"
}

type reproduceResult struct {
	Out   string          `json:"out"`
	Files []reproduceFile `json:"files"`
}

// reproduceIndex is the index file written beside the exhibits.
const reproduceIndex = "README.md"

// indexHeading opens every index reproduce writes; an existing README.md
// that does not start with it is not reproduce's and is never overwritten.
const indexHeading = "# commlab exhibits\n"

func runReproduce(args []string, stdout io.Writer) error {
	fs := newFlags("reproduce")
	out := fs.String("o", "", "the folder to write the exhibits into (created if missing)")
	output := addFormatFlags(fs)
	if _, err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	format, err := output.get()
	if err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf(fs, "need -o DIR, the folder to write the exhibits into, e.g. -o exhibits")
	}
	res, err := reproduce(*out)
	if err != nil {
		return err
	}
	switch format {
	case formatJSON:
		return writeJSON(stdout, res)
	case formatCSV:
		return writeCSV(stdout, res.Files)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "wrote %d exhibits and %s to %s\n\n", len(res.Files), reproduceIndex, res.Out)
	fmt.Fprintln(tw, "name\tkind\tpath\ttitle")
	for _, f := range res.Files {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Name, f.Kind, f.Path, f.Title)
	}
	return tw.Flush()
}

// exhibits builds what reproduce writes: every exhibit registered in
// article, computed afresh on each call.
var exhibits = article.Exhibits

// reproduce builds every exhibit and writes tables to dir/NAME.md, figures
// to dir/NAME.png and the index to dir/README.md. The folder is checked and
// created before the exhibits are built, which takes long, so that a bad -o
// fails at once. All exhibits are rendered before any file is written, so a
// failing exhibit writes nothing; a README.md that reproduce did not write
// (a project's own, when dir is a repository) is an error, not overwritten.
func reproduce(dir string) (reproduceResult, error) {
	res := reproduceResult{Out: dir, Files: []reproduceFile{}}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return res, fmt.Errorf("-o %s: exists and is not a folder", dir)
	}
	index := filepath.Join(dir, reproduceIndex)
	if old, err := os.ReadFile(index); err == nil && !strings.HasPrefix(string(old), indexHeading) {
		return res, fmt.Errorf("-o %s: %s exists and was not written by commlab reproduce; choose another folder", dir, reproduceIndex)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, fmt.Errorf("-o %s: cannot create the folder: %w", dir, err)
	}
	list, err := exhibits()
	if err != nil {
		return res, err
	}
	contents := make([][]byte, len(list))
	for i, e := range list {
		if e.Name == "" || strings.ContainsAny(e.Name, `/\`) || strings.HasPrefix(e.Name, ".") {
			return res, fmt.Errorf("exhibit %q: not a usable file name", e.Name)
		}
		f := reproduceFile{Name: e.Name, Title: e.Title}
		if e.Table != nil {
			f.Kind, f.Path = "table", filepath.Join(dir, e.Name+".md")
			contents[i] = []byte(tableFile(e))
		} else {
			f.Kind, f.Path = "figure", filepath.Join(dir, e.Name+".png")
			if contents[i], err = e.Figure.PNG(); err != nil {
				return res, fmt.Errorf("exhibit %s: %w", e.Name, err)
			}
		}
		res.Files = append(res.Files, f)
	}
	for i, f := range res.Files {
		write := func(tmp string) error { return os.WriteFile(tmp, contents[i], 0o644) }
		if err := writeOutput(f.Path, nil, true, write); err != nil {
			return res, fmt.Errorf("-o %s: cannot write %s: %w", dir, filepath.Base(f.Path), err)
		}
	}
	write := func(tmp string) error { return os.WriteFile(tmp, []byte(indexFile(res.Files)), 0o644) }
	if err := writeOutput(index, nil, true, write); err != nil {
		return res, fmt.Errorf("-o %s: cannot write %s: %w", dir, reproduceIndex, err)
	}
	return res, nil
}

// tableFile is a table exhibit's Markdown file: its title as a heading, then
// the table.
func tableFile(e article.Exhibit) string {
	return "# " + e.Title + "\n\n" + e.Table.Markdown()
}

// indexFile lists the exhibits with their titles and links, figures shown inline.
func indexFile(files []reproduceFile) string {
	var b strings.Builder
	b.WriteString(indexHeading + "\n")
	b.WriteString("Written by `commlab reproduce`: the notebooks' tables (Markdown) and figures (PNG),\n")
	b.WriteString("built by the same functions the notebooks call (package article), with the article's defaults.\n\n")
	idx := figure.Table{Header: []string{"exhibit", "kind", "title"}}
	for _, f := range files {
		file := filepath.Base(f.Path)
		idx.Rows = append(idx.Rows, []string{"[" + f.Name + "](" + file + ")", f.Kind, f.Title})
	}
	b.WriteString(idx.Markdown())
	for _, f := range files {
		if f.Kind == "figure" {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n\n![%s](%s)\n", f.Name, f.Title, f.Title, filepath.Base(f.Path))
		}
	}
	return b.String()
}
