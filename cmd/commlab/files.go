package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
)

// maxInput bounds every file the command line reads: logs, tidy CSVs, -hw
// files and topology captures. nccl-tests prints about 120 bytes a row, so
// a sweep of a million rows is near 120 MB, far more than any real run
// prints; twice that still leaves room for a log's chatter.
const maxInput = 256 << 20

// maxRows bounds the measurement rows of one file: a cluster's whole
// sweep, 100 runs of 40 sizes, is 4,000 rows, and the fits and the
// calibration over twenty thousand still answer in seconds.
const maxRows = 20000

// errTooLarge is a file past maxInput.
var errTooLarge = fmt.Errorf("larger than %s, far more than nccl-tests or nvidia-smi print: give the file of one run (split a long capture with csplit, or keep its tables with grep)",
	units.FormatSize(maxInput))

// readInput reads the file at path whole, through one bound: a file larger
// than maxInput is refused before it is read, and a stream with no end
// (/dev/zero, a pipe that does not close) is refused once it passes
// maxInput or, if its first bytes are not text, at once, so that memory
// stays bounded. Errors name path. The path "-" is standard input.
func readInput(path string) ([]byte, error) {
	f := os.Stdin
	if path != "-" {
		var err error
		if f, err = os.Open(path); err != nil {
			return nil, err
		}
		defer f.Close()
	} else if stdinDevice() {
		// A terminal would wait, silently, for what the user meant to pipe.
		return nil, fmt.Errorf("-: standard input is a terminal or a device, not a file or a pipe: pipe the file into the command (cat FILE | commlab ... -), or name the file")
	}
	size := int64(0)
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = info.Size()
	} else if err == nil && info.IsDir() {
		return nil, fmt.Errorf("%s is a folder, not a file: name a file in it", path)
	}
	if size > maxInput {
		return nil, fmt.Errorf("%s: %s: %w", path, units.FormatSize(float64(size)), errTooLarge)
	}
	// A regular file is read into a buffer of its size; a stream grows one
	// by doubling up to maxInput, and its first 64 KiB tell text from
	// a binary stream before more is read.
	buf := make([]byte, 0, min(max(size+1, 64<<10), maxInput))
	for checked := false; ; {
		if len(buf) == maxInput {
			if n, _ := io.ReadFull(f, make([]byte, 1)); n > 0 {
				return nil, fmt.Errorf("%s: %w", path, errTooLarge)
			}
			return buf, nil
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), maxInput-len(buf)))
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), maxInput)])
		buf = buf[:len(buf)+n]
		if !checked && (len(buf) >= 64<<10 || err != nil) {
			checked = true
			if err := nccltests.CheckText(buf); err != nil && !errors.Is(err, nccltests.ErrEmpty) {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
}

// writeOutput writes the file path through write, which writes the file
// named by its argument, with three guards: path is none of inputs (the
// files the command read; compared as files, so that a symlink or another
// spelling of an input is refused too); an existing path is replaced only
// when replace is true (the user named it, or gave -force); and the file
// appears whole or not at all, written to a temporary file beside it (with
// the same extension) and renamed over it.
func writeOutput(path string, inputs []string, replace bool, write func(tmp string) error) error {
	if info, err := os.Stat(path); err == nil {
		for _, in := range inputs {
			if ii, err := os.Stat(in); err == nil && os.SameFile(info, ii) {
				if in != path {
					return fmt.Errorf("%s is the input %s: choose another output file", path, in)
				}
				return fmt.Errorf("%s is an input: choose another output file", path)
			}
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s exists and is not a regular file: choose another output file", path)
		}
		if !replace {
			return fmt.Errorf("%s exists: give -force to replace it, or -o FILE to write elsewhere", path)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*"+filepath.Ext(path))
	if err != nil {
		// The error names the temporary file, which the user never named.
		dir := filepath.Dir(path)
		if _, serr := os.Stat(dir); errors.Is(serr, os.ErrNotExist) {
			return fmt.Errorf("%s: the folder %s does not exist: create it first (mkdir -p %s)", path, dir, dir)
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s: cannot write in the folder %s: %w", path, dir, pe.Err)
		}
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // nothing is left to remove after the rename
	if err := f.Close(); err != nil {
		return err
	}
	if err := write(tmp); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// readTopo reads the topology capture at path through readInput, nvidia-smi
// topo -m's or rocm-smi --showtopo's (topo.ReadCapture, its errors and
// problems naming path).
func readTopo(path string) (*topo.Topology, []*topo.ParseError, error) {
	b, err := readInput(path)
	if err != nil {
		return nil, nil, err
	}
	if path == "-" && len(bytes.TrimSpace(b)) == 0 {
		return nil, nil, errors.New("-: " + stdinEmpty)
	}
	t, problems, err := topo.ReadCapture(namedReader{bytes.NewReader(b), path})
	return t, problems, rocmHint(err)
}

// stdinEmpty says that "-" read nothing, as where the command that was to
// write the file into the pipe printed nothing or no pipe was given.
// stdinDevice reports that standard input is a character device other
// than /dev/null (a terminal, most often), which a command reading "-"
// would wait on: /dev/null reads as empty.
func stdinDevice() bool {
	info, err := os.Stdin.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(info, null)
}

const stdinEmpty = "standard input (-) gave nothing: pipe the file into the command (cat FILE | commlab ... -), or name the file"

// rocmHint adds to a ROCm topology's error the -hw settings that describe
// an AMD Instinct host instead: the catalog's AMD systems, or the links.
func rocmHint(err error) error {
	if !errors.Is(err, topo.ErrROCm) && !errors.Is(err, topo.ErrROCmJSON) {
		return err
	}
	var amd []string
	for _, s := range presets.Systems {
		if strings.HasPrefix(s.GPU, "AMD ") {
			amd = append(amd, s.Name)
		}
	}
	return fmt.Errorf("%w: or describe an AMD Instinct host with -hw, -hw system=NAME with NAME one of the catalog's AMD systems (%s), or -hw fabric=infinity,links=N,link-bw=RATE",
		err, strings.Join(amd, ", "))
}

// A namedReader is a file's text read into memory, with the file's name
// for a parser that names its input as an *os.File's Name method does.
type namedReader struct {
	*bytes.Reader
	name string
}

func (r namedReader) Name() string { return r.name }

// readLog reads the measurement file at path through readInput, an
// nccl-tests log or a tidy CSV (data.ReadMeasurements, with opt).
func readLog(path string, opt *nccltests.Options) (*data.Log, error) {
	// The reader stops at the row past maxRows, so that a file of
	// millions of rows (3 million in 180 MB took 2.2 GB) costs no more
	// memory than maxRows do; a tidy CSV's reader too, once the file's
	// bytes are read.
	o := nccltests.Options{}
	if opt != nil {
		o = *opt
	}
	o.MaxRows = maxRows
	tooMany := func(at string) error {
		return fmt.Errorf("%s; commlab fits or calibrates on at most %d rows of a file, bad ones counted, in seconds: give the tables of the runs you need (nccl-tests prints about 30 rows a run; keep them with csplit or grep)", at, maxRows)
	}
	var l *data.Log
	var err error
	// b is a stream's bytes, read once: a named pipe opened again waits
	// for a writer that never comes.
	var b []byte
	if info, serr := os.Stat(path); serr == nil && info.Mode().IsRegular() && info.Size() <= maxInput {
		// A file within maxInput is read as a stream, a line at a time
		// (data.ReadFile): a file of 256 MiB on one line took 1.07 GB
		// when it was read whole.
		l, err = data.ReadFile(path, &o)
	} else {
		if b, err = readInput(path); err != nil {
			return nil, err
		}
		l, err = data.ReadMeasurements(bytes.NewReader(b), path, &o)
	}
	if path == "-" && errors.Is(err, nccltests.ErrEmpty) {
		err = fmt.Errorf("%w: %s", err, stdinEmpty)
	}
	var pe *nccltests.ParseError
	if errors.Is(err, nccltests.ErrTooManyRows) && errors.As(err, &pe) {
		return nil, tooMany(fmt.Sprintf("%s:%d: %v", path, pe.Line, pe.Err))
	}
	if err == nil {
		rows := 0
		for _, t := range l.Tests {
			rows += len(t.Rows)
		}
		if rows > maxRows {
			return nil, tooMany(fmt.Sprintf("%s: %d rows", path, rows))
		}
	}
	if errors.Is(err, nccltests.ErrNoTable) && topoParses(path, b) {
		err = fmt.Errorf("%w; it is an nvidia-smi topo -m capture: read it with commlab topo %s, or give it to predict as -topo %s", err, path, path)
	}
	return l, err
}

// topoParses reports whether the file at path is an nvidia-smi topo -m
// capture: b, a stream's bytes, or else the file read by topo.Parse, which
// stops past the few megabytes any capture holds.
func topoParses(path string, b []byte) bool {
	var r io.Reader = bytes.NewReader(b)
	if b == nil {
		f, err := os.Open(path)
		if err != nil {
			return false
		}
		defer f.Close()
		r = f
	}
	_, _, err := topo.Parse(r)
	return err == nil
}
