package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/inframethod/commlab/article"
)

func init() {
	register("claims", "check every statement of the source article against the model and data", runClaims)
}

type claimRow struct {
	ID        string `json:"id"`
	Statement string `json:"statement"`
	Expected  string `json:"expected"`
	Got       string `json:"got"`
	Pass      bool   `json:"pass"`
}

// errClaimsFailed is returned when a claim fails, for the non-zero exit.
type errClaimsFailed struct{ failed, total int }

func (e errClaimsFailed) Error() string {
	return fmt.Sprintf("%d of %d claims fail", e.failed, e.total)
}

func runClaims(args []string, stdout io.Writer) error {
	fs := newFlags("claims")
	output := addFormatFlags(fs)
	if _, err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	format, err := output.get()
	if err != nil {
		return err
	}
	claims := ledger()
	rows := make([]claimRow, len(claims))
	failed := 0
	for i, c := range claims {
		rows[i] = claimRow(c)
		if !c.Pass {
			failed++
		}
	}
	switch format {
	case formatJSON:
		if err := writeJSON(stdout, struct {
			Claims []claimRow `json:"claims"`
		}{rows}); err != nil {
			return err
		}
	case formatCSV:
		if err := writeCSV(stdout, rows); err != nil {
			return err
		}
	default:
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tpass\texpected\tgot")
		for _, r := range rows {
			mark := "ok"
			if !r.Pass {
				mark = "FAIL"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, mark, r.Expected, r.Got)
		}
		tw.Flush()
		fmt.Fprintf(stdout, "\n%d claims, %d pass\n", len(rows), len(rows)-failed)
	}
	if failed > 0 {
		return errClaimsFailed{failed, len(rows)}
	}
	return nil
}

// ledger is every claim: the model's, the fabrics' and the measurements'.
func ledger() []article.Claim { return article.Ledger() }
