package article

import (
	"fmt"
	"sort"

	"github.com/inframethod/commlab/notebooks/nbplot"
)

// An Exhibit is one table or figure of a notebook. The notebooks show
// exhibits built by this package's functions, and "commlab reproduce" writes
// every registered exhibit to files, so each exists in one place only.
type Exhibit struct {
	// Name is the file stem, prefixed by its notebook's number, e.g.
	// "01-allreduce-times"; reproduce writes Name.png or Name.md.
	Name string
	// Title says what it shows, in a sentence.
	Title string
	// Exactly one of Table and Figure is set.
	Table  *nbplot.Table
	Figure nbplot.PNGer
}

// A Builder makes the exhibits of one notebook with the article's defaults.
type Builder func() ([]Exhibit, error)

var builders = map[string]Builder{}

// Register adds the builder of a notebook's exhibits under the notebook's
// file stem (e.g. "01_allreduce"); each notebook's file calls it from init.
func Register(notebook string, b Builder) {
	if _, dup := builders[notebook]; dup {
		panic("article: exhibits registered twice for " + notebook)
	}
	builders[notebook] = b
}

// Exhibits builds every registered exhibit, notebook by notebook in name order.
func Exhibits() ([]Exhibit, error) {
	names := make([]string, 0, len(builders))
	for n := range builders {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Exhibit
	seen := map[string]bool{}
	for _, n := range names {
		ex, err := builders[n]()
		if err != nil {
			return nil, fmt.Errorf("exhibits of %s: %w", n, err)
		}
		for _, e := range ex {
			if seen[e.Name] || (e.Table == nil) == (e.Figure == nil) {
				return nil, fmt.Errorf("exhibits of %s: %q is a duplicate or not exactly one of table and figure", n, e.Name)
			}
			seen[e.Name] = true
		}
		out = append(out, ex...)
	}
	return out, nil
}
