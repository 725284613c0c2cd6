package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// indexHeading opens every index reproduce writes. It marks a folder as
// reproduce's: reproduce writes only into a new or empty folder or one
// whose README.md starts with it (ownFolder).
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

// reproduce builds every exhibit and writes the index to dir/README.md,
// then tables to dir/NAME.md and figures to dir/NAME.png. The folder is
// checked and created before the exhibits are built, which takes long, so
// that a bad -o fails at once. All exhibits are rendered before any file is
// written, so a failing exhibit writes nothing; the index goes first, so
// that a run stopped part way leaves a folder the next run takes as its
// own (ownFolder).
func reproduce(dir string) (reproduceResult, error) {
	res := reproduceResult{Out: dir, Files: []reproduceFile{}}
	if err := ownFolder(dir); err != nil {
		return res, err
	}
	index := filepath.Join(dir, reproduceIndex)
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
	paths := append([]string{index}, make([]string, len(res.Files))...)
	contents = append([][]byte{[]byte(indexFile(res.Files))}, contents...)
	for i, f := range res.Files {
		paths[i+1] = f.Path
	}
	for i, path := range paths {
		write := func(tmp string) error { return os.WriteFile(tmp, contents[i], 0o644) }
		if err := writeOutput(path, nil, true, write); err != nil {
			return res, fmt.Errorf("-o %s: cannot write %s: %w", dir, filepath.Base(path), err)
		}
	}
	return res, nil
}

// ownFolder returns a usage error unless dir is a folder reproduce may
// write into: one that does not exist, an empty one, or one whose
// README.md starts with indexHeading, which reproduce wrote. Any other
// folder holds someone's files (a repository's docs/, which held no
// README.md and lost same-named files to a run), and the error names a
// folder below it that is free.
func ownFolder(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return nil // missing, or MkdirAll says why it cannot be made
	}
	if !info.IsDir() {
		return flagErrorf("-o %s: exists and is not a folder: give a new folder, such as -o %s", dir, freeFolder(filepath.Dir(dir)))
	}
	if old, err := os.ReadFile(filepath.Join(dir, reproduceIndex)); err == nil && strings.HasPrefix(string(old), indexHeading) {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return nil
	}
	why := "holds " + entries[0].Name()
	if len(entries) > 1 {
		why += fmt.Sprintf(" and %d more", len(entries)-1)
	}
	why += " and no index of commlab reproduce"
	if slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == reproduceIndex }) {
		why = reproduceIndex + " exists and was not written by commlab reproduce"
	}
	return flagErrorf("-o %s: %s, whose files it would replace: give a new or empty folder, such as -o %s", dir, why, freeFolder(dir))
}

// freeFolder returns a folder below parent that does not exist: exhibits,
// or exhibits-2, -3 and so on, up to exhibits-99.
func freeFolder(parent string) string {
	path := filepath.Join(parent, "exhibits")
	for i := 2; i < 100; i++ {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			break
		}
		path = filepath.Join(parent, "exhibits-"+strconv.Itoa(i))
	}
	return path
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
