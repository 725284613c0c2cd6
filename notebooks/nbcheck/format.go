package nbcheck

import (
	"fmt"
	"io"
	"regexp"
)

// The problems CheckFormat reports.
const (
	OldFormat Kind = "old-format" // nbformat before 4.5, whose cells have no ids
	CellID    Kind = "cell-id"    // a cell whose id is missing, invalid, or an earlier cell's
)

// minMinor is the oldest nbformat 4 minor version CheckFormat accepts: 4.5,
// the first whose cells carry ids.
const minMinor = 5

// cellIDPattern is the cell_id definition of nbformat's v4.5 JSON schema
// (jupyter/nbformat, nbformat/v4/nbformat.v4.5.schema.json): pattern
// ^[a-zA-Z0-9-_]+$, 1 to 64 characters.
var cellIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// CheckFormat reads one notebook, executed or not, and reports whether it is
// in the format the project keeps its notebooks in: nbformat 4.5 or later,
// and every cell with an id that the schema accepts (1 to 64 letters, digits,
// '-' or '_') and that no earlier cell has (nbformat's validator refuses
// duplicate ids too). The report counts cells and images as Check's does;
// its Problems are of kinds OldFormat and CellID only. It returns an error
// wrapping ErrFormat when r does not hold an nbformat 4 notebook.
func CheckFormat(r io.Reader) (Report, error) {
	nb, err := decode(r)
	if err != nil {
		return Report{}, err
	}
	rep := newReport(nb)
	rep.Problems = formatProblems(nb)
	return rep, nil
}

// CheckFormatFile is CheckFormat on the named file; errors name the file.
func CheckFormatFile(path string) (Report, error) {
	return checkFile(path, CheckFormat)
}

func formatProblems(nb notebook) []Problem {
	if nb.NBFormatMinor < minMinor {
		return []Problem{{-1, OldFormat, fmt.Sprintf("nbformat %d.%d, want 4.%d or later (cells with ids)",
			nb.NBFormat, nb.NBFormatMinor, minMinor)}}
	}
	var ps []Problem
	first := make(map[string]int, len(nb.Cells))
	for i, c := range nb.Cells {
		switch {
		case c.ID == nil:
			ps = append(ps, Problem{i, CellID, "no id"})
		case !cellIDPattern.MatchString(*c.ID):
			ps = append(ps, Problem{i, CellID, fmt.Sprintf("id %q: want 1 to 64 letters, digits, '-' or '_'", *c.ID)})
		default:
			if j, ok := first[*c.ID]; ok {
				ps = append(ps, Problem{i, CellID, fmt.Sprintf("id %q is also cell %d's", *c.ID, j)})
			} else {
				first[*c.ID] = i
			}
		}
	}
	return ps
}
