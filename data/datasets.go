package data

import (
	"bytes"
	"embed"
	"encoding/csv"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/units"
)

// Files holds the embedded datasets:
//
//	article_h20.csv         the source article's measured H20 points (tidy schema)
//	article_statements.csv  the article's measured statements that are not points
//	kernels_public.csv      public kernel latencies (its own columns, with a source column)
//	logs/*.log              public H20 nccl-tests logs, each with "# Source:" header lines
//
//go:embed article_h20.csv article_statements.csv kernels_public.csv logs/*.log
var Files embed.FS

// mustPoints reads an embedded tidy CSV; a bad embedded file is a bug.
func mustPoints(name string) Points {
	b, err := Files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	ps, problems, err := readTidyCSV(b, name, 0)
	if err == nil && len(problems) > 0 {
		err = problems[0]
	}
	if err != nil {
		panic("data: embedded " + err.Error())
	}
	return ps
}

// Article returns the source article's measured points: NCCL AllToAll on 8
// H20 GPUs (one node) and on 2 x 8 (two nodes). The article's KB and MB are
// binary, so sizes are exact powers of two. Select by Filter{NNodes: 1}.
func Article() Points { return mustPoints("article_h20.csv") }

// Kernels returns the public kernel-latency table as points; its gpu
// column becomes System.
func Kernels() Points { return mustPoints("kernels_public.csv") }

// A Statement is a measured statement of the source article that is not a
// point: a floor, a ratio, a threshold.
type Statement struct {
	// ID is a short stable name ("allreduce-floor").
	ID string
	// Source cites the article and the measurement.
	Source string
	// System and Collective say what was measured ("H20", "allreduce").
	System, Collective string
	// Text is the statement in English.
	Text string
	// Quantity names what Low and High bound; "" for a qualitative statement.
	Quantity string
	// Low and High bound the stated value in SI units of Unit (equal for a
	// single value); both 0 when Quantity is "".
	Low, High float64
	// Unit is "s", "B", "B/s" or "1" (a ratio or a 0/1 flag).
	Unit string
	// Note qualifies the statement.
	Note string
}

// Statements returns the article's measured statements that are not points.
func Statements() []Statement {
	b, err := Files.ReadFile("article_statements.csv")
	if err != nil {
		panic(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		panic("data: embedded article_statements.csv: " + err.Error())
	}
	var out []Statement
	for i, r := range recs[1:] {
		s, err := statement(r)
		if err != nil {
			panic(fmt.Sprintf("data: embedded article_statements.csv:%d: %v", i+2, err))
		}
		out = append(out, s)
	}
	return out
}

// StatementByID returns the statement with the given ID.
func StatementByID(id string) (Statement, bool) {
	for _, s := range Statements() {
		if s.ID == id {
			return s, true
		}
	}
	return Statement{}, false
}

// statement reads a record id,source,system,collective,statement,quantity,
// low,high,unit,note, converting low and high from unit (us, GiB/s, KiB,
// x, bool, ...) to SI.
func statement(r []string) (Statement, error) {
	s := Statement{ID: r[0], Source: r[1], System: r[2], Collective: r[3], Text: r[4], Quantity: r[5], Note: r[9]}
	if s.Quantity == "" {
		return s, nil
	}
	unit := r[8]
	conv := func(v string) (float64, error) {
		switch unit {
		case "x", "bool":
			s.Unit = "1"
			return strconv.ParseFloat(v, 64)
		case "B", "KiB", "MiB", "KB", "MB":
			s.Unit = "B"
			n, err := units.ParseSize(v + unit)
			return float64(n), err
		}
		if strings.HasSuffix(unit, "/s") {
			s.Unit = "B/s"
			return units.ParseBandwidth(v + unit)
		}
		s.Unit = "s"
		return units.ParseDuration(v + unit)
	}
	var err error
	if s.Low, err = conv(r[6]); err != nil {
		return s, err
	}
	s.High, err = conv(r[7])
	return s, err
}

// PublicLogNames lists the embedded public logs by file name, sorted.
func PublicLogNames() []string {
	names, err := fs.Glob(Files, "logs/*.log")
	if err != nil {
		panic(err)
	}
	for i, n := range names {
		names[i] = path.Base(n)
	}
	sort.Strings(names)
	return names
}

// PublicPoints returns every measured cell of every embedded public log as
// points (see Log.Points), the file name as Source.
func PublicPoints() Points {
	var out Points
	for _, name := range PublicLogNames() {
		l, err := PublicLog(name, nil)
		if err != nil {
			panic("data: embedded " + err.Error())
		}
		out = append(out, l.Points()...)
	}
	return out
}

// PublicLog reads the embedded public log of the given file name with a
// nccltests.Reader; opt, nil for none, overrides what it infers.
func PublicLog(name string, opt *nccltests.Options) (*Log, error) {
	b, err := Files.ReadFile("logs/" + name)
	if err != nil {
		return nil, err
	}
	return readNCCLTests(bytes.NewReader(b), name, opt)
}
