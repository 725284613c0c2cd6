// Command commlab evaluates the collective-communication cost model, reads
// topologies and nccl-tests logs, fits measurements and checks the source
// article's claims. Run "commlab help" for the subcommands.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data/nccltests"
)

// A command is one subcommand. run parses args (without the subcommand name),
// writes its result to stdout and warnings to stderr; an error ends the
// process with exit status 1.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

// register adds a subcommand that writes only to stdout; each subcommand's
// file calls it or registerWarn from init.
func register(name, summary string, run func(args []string, stdout io.Writer) error) {
	registerWarn(name, summary, func(args []string, stdout, _ io.Writer) error { return run(args, stdout) })
}

// registerWarn adds a subcommand that also writes warnings to stderr.
func registerWarn(name, summary string, run func(args []string, stdout, stderr io.Writer) error) {
	if _, dup := commands[name]; dup {
		panic("commlab: subcommand registered twice: " + name)
	}
	commands[name] = command{summary, run}
}

// A usageError is a command line that does not parse: its text is the flag
// package's complaint and the subcommand's usage. The process exits 2.
type usageError struct{ text string }

func (e *usageError) Error() string { return e.text }

// A flagError is a command line that the flag package parsed but that
// does not hold: a flag's value that does not read, a needed flag left
// out, or flags that exclude each other. The process exits 2, as for one
// that does not parse, and points to the subcommand's -h.
type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }
func (e *flagError) Unwrap() error { return e.err }

// flagErrorf returns a flagError, formatted as fmt.Errorf does.
func flagErrorf(format string, a ...any) error { return &flagError{fmt.Errorf(format, a...)} }

// asFlagError returns err as a usage error: unchanged if it is one (a
// usageError, flagError or helpError), else a flagError. A subcommand whose
// flags alone say what it computes calls it on what reading them returns.
func asFlagError(err error) error {
	var u *usageError
	var f *flagError
	var h *helpError
	var in *fileError
	if err == nil || errors.As(err, &u) || errors.As(err, &f) || errors.As(err, &h) || errors.As(err, &in) {
		return err
	}
	return &flagError{err}
}

// A fileError is what a file a flag names holds wrongly (a -hw file's
// line): no usage error, exit 1 with FILE:LINE, in every subcommand.
type fileError struct{ err error }

func (e *fileError) Error() string { return e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// hwFileError returns err as a fileError where the -hw value hw names a
// file and err is no usage error, else err.
func hwFileError(hw string, err error) error {
	var f *flagError
	if err == nil || !hwFile(hw) || errors.As(err, &f) {
		return err
	}
	return &fileError{err}
}

// A helpError is a request for the subcommand's usage (-h): its text goes to
// standard output, and the process exits 0.
type helpError struct{ text string }

func (e *helpError) Error() string { return e.text }

func main() {
	// Standard output is buffered: a table of a thousand rows through
	// text/tabwriter is otherwise a write(2) a cell.
	stdout := bufio.NewWriterSize(os.Stdout, 64<<10)
	code := run(os.Args[1:], stdout, afterFlush{stdout, os.Stderr})
	if err := stdout.Flush(); err != nil && code == 0 {
		fmt.Fprintf(os.Stderr, "commlab: %v\n", err)
		code = 1
	}
	os.Exit(code)
}

// afterFlush writes to w after flushing buf, so that what goes to standard
// error keeps its place among the lines of standard output that buf holds
// back.
type afterFlush struct {
	buf *bufio.Writer
	w   io.Writer
}

func (a afterFlush) Write(p []byte) (int, error) {
	if err := a.buf.Flush(); err != nil {
		return 0, err
	}
	return a.w.Write(p)
}

// run executes one command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] == "help" && len(args) > 1 {
		// "commlab help predict" is "commlab predict -h"; a name that is no
		// subcommand is the unknown subcommand it would be without help.
		if _, ok := commands[args[1]]; ok {
			return run([]string{args[1], "-h"}, stdout, stderr)
		}
		args = args[1:]
	} else if args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "commlab: unknown subcommand %q\n", args[0])
		usage(stderr)
		return 2
	}
	if err := cmd.run(args[1:], stdout, stderr); err != nil {
		var help *helpError
		var bad *usageError
		var flagErr *flagError
		switch {
		case errors.As(err, &help):
			fmt.Fprint(stdout, help.text)
			return 0
		case errors.As(err, &bad):
			fmt.Fprint(stderr, bad.text)
			return 2
		case errors.As(err, &flagErr):
			fmt.Fprintf(stderr, "commlab %s: %s\nRun \"commlab %s -h\" for its flags.\n", args[0], userError(err), args[0])
			return 2
		}
		fmt.Fprintf(stderr, "commlab %s: %s\n", args[0], userError(err))
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: commlab <subcommand> [flags]\n\nsubcommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun \"commlab <subcommand> -h\" for its flags. A subcommand that prints a table takes\n-format text, json or csv (-json for short).")
}

// newFlags returns a flag set for a subcommand that reports errors through the
// returned error rather than exiting: parseFlags returns its complaint and
// usage as a usageError or helpError, for run to print to the command's
// writer.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("commlab "+name, flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	// A subcommand with a synopsis of its own replaces this one.
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: commlab %s [flags]\n", name)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, flags and positional arguments in any order
// ("commlab fit FILE -p 8" and "commlab fit -p 8 FILE" are the same), and
// returns the positional arguments. More than maxArgs of them is an error.
//
// A flag given twice is a usage error (repeatedFlag): the flag package
// keeps the last value, and the first would be lost without a word.
func parseFlags(fs *flag.FlagSet, args []string, maxArgs int) ([]string, error) {
	if err := repeatedFlag(fs, args); err != nil {
		return nil, err
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			text := ""
			if b, ok := fs.Output().(*bytes.Buffer); ok {
				text = b.String()
			}
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpError{text}
			}
			// A key of a log's (-nodes for LOG:nodes=N) given as a flag
			// the command lacks: say where it goes. The commands that
			// study logs and predict no run of their own (diagnose, plot:
			// no -collective) take their shapes from their logs; those
			// that predict one give its ranks by their own flag.
			if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok && isCalibrationKey(name) && fs.Lookup("calibrate") != nil {
				where := fmt.Sprintf("this command takes a log's %s after its name, as LOG:%s=VALUE", name, name)
				switch {
				case fs.Lookup("collective") == nil:
				case name == "ranks" && fs.Lookup("p") != nil:
					where = "the predicted run's ranks are -p N"
				case name == "ranks" && fs.Lookup("comms") != nil:
					where = "the job's communicators are -comms NODESxGPUS"
				default:
					where = fmt.Sprintf("a calibration log's %s goes after its name, as -calibrate LOG:%s=VALUE", name, name)
				}
				first, rest, _ := strings.Cut(text, "\n")
				text = fmt.Sprintf("%s: %s\n%s", first, where, rest)
			}
			return nil, &usageError{text}
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) > maxArgs {
		arg := pos[maxArgs]
		// A -calibrate item is FILE[:KEY=VALUE...], items joined by commas.
		first, _, _ := strings.Cut(arg, ",")
		first, _, _ = strings.Cut(first, ":")
		if c := fs.Lookup("calibrate"); c != nil && isFile(first) {
			if c.Value.String() != "" {
				return nil, usageErrorf(fs, "unexpected argument %q: name every log in -calibrate, separated by commas, such as -calibrate %s,%s", arg, c.Value, arg)
			}
			return nil, usageErrorf(fs, "unexpected argument %q: the logs go in -calibrate, such as -calibrate %s", arg, arg)
		}
		hint := "flags start with -; quote a value that holds spaces"
		if fs.Lookup("gpu") != nil {
			hint += ` (-gpu "NVIDIA H100 80GB HBM3")`
		}
		if fs.Lookup("size") != nil {
			hint += ", and write a list without spaces (-size 1MiB,1GiB)"
		}
		return nil, usageErrorf(fs, "unexpected argument %q: %s", arg, hint)
	}
	return pos, nil
}

// repeatedFlag returns a usage error where args give a flag of fs other
// than a boolean twice, naming the flag, both values and how to give them
// in one: a list flag (its usage says "comma-separated" or "KEY=VALUE,...")
// takes them joined by commas, any other one value. It reads args as
// parseFlags does, through a flag set of the same names whose values
// record each value given, and leaves a command line that does not parse
// to parseFlags: a repeated boolean sets what it set once.
func repeatedFlag(fs *flag.FlagSet, args []string) error {
	shadow := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	shadow.SetOutput(io.Discard)
	given := map[string][]string{}
	var twice *flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			shadow.Bool(f.Name, false, "")
			return
		}
		shadow.Func(f.Name, "", func(v string) error {
			if given[f.Name] = append(given[f.Name], v); len(given[f.Name]) == 2 && twice == nil {
				twice = f
			}
			return nil
		})
	})
	for shadow.Parse(args) == nil && shadow.NArg() > 0 {
		args = shadow.Args()[1:]
	}
	if twice == nil {
		return nil
	}
	v := given[twice.Name][:2]
	hint := "give it once"
	switch {
	case twice.Name == "hw" && (hwFile(v[0]) || hwFile(v[1])):
		hint = "give it once, a file or KEY=VALUE pairs joined by commas, such as -hw links=4,nvls=false"
	case strings.Contains(twice.Usage, "comma-separated") || strings.Contains(twice.Usage, "KEY=VALUE,..."):
		hint = "give it once, the values joined by commas: -" + twice.Name + " " + v[0] + "," + v[1]
	}
	return flagErrorf("-%s given twice (%s, then %s): %s", twice.Name, v[0], v[1], hint)
}

// isFile reports whether path names a regular file.
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// usageErrorf returns a usageError: "commlab SUBCOMMAND: message" and the
// subcommand's usage, for a command line that parses but lacks or has too
// many arguments.
func usageErrorf(fs *flag.FlagSet, format string, a ...any) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n", fs.Name(), fmt.Sprintf(format, a...))
	out := fs.Output()
	fs.SetOutput(&b)
	fs.Usage()
	fs.SetOutput(out)
	return &usageError{b.String()}
}

// A problem is a warning about an input: a row skipped, damage read past, a
// fit to read with care. It is the one shape of every subcommand's JSON
// "problems" (always present, [] when empty). In text mode problems go to
// standard error, one line each as "FILE:LINE:COLUMN: message", and stdout
// holds only the result.
type problem struct {
	// File is the input's name as given ("" for standard input).
	File string `json:"file"`
	// Line is the 1-based line, 0 when the problem concerns the whole file.
	Line int `json:"line"`
	// Column is the 1-based byte offset in the line of the offending field,
	// 0 when the problem concerns the whole line.
	Column int `json:"column"`
	// Message says what is wrong.
	Message string `json:"message"`
	// leftOut, when set, says the problem left out the file's test of
	// index test.
	leftOut bool
	test    int
	// candidates, when set, are the collectives the file's test of index
	// test fits alike, comma-separated (a problem stays comparable): its
	// collective was guessed among them (the first).
	candidates string
	// failed, when set, says the run of the file's test of index test
	// failed (runFailed).
	failed bool
}

// String is "FILE:LINE:COLUMN: message", leaving out the parts that are
// empty or 0 (the form of topo's and nccltests' ParseError).
func (p problem) String() string {
	if where := p.where(); where != "" {
		return where + ": " + p.Message
	}
	return p.Message
}

// where is "FILE:LINE:COLUMN", leaving out the parts that are empty or 0.
func (p problem) where() string {
	where := p.File
	if p.Line > 0 {
		where += ":" + strconv.Itoa(p.Line)
		if p.Column > 0 {
			where += ":" + strconv.Itoa(p.Column)
		}
	}
	return strings.TrimPrefix(where, ":")
}

// problemOf turns a reader's warning about file into a problem, with the
// place a *nccltests.ParseError (topo's too: one type) carries, and
// the test a *predict.LeftOutError left out; any other error concerns file
// as a whole.
func problemOf(file string, err error) problem {
	var pe *nccltests.ParseError
	if !errors.As(err, &pe) {
		return problem{File: file, Message: err.Error()}
	}
	p := problem{File: pe.File, Line: pe.Line, Column: pe.Column, Message: pe.Err.Error()}
	var lo *predict.LeftOutError
	if errors.As(pe.Err, &lo) {
		p.leftOut, p.test = true, lo.Test
	}
	var g *guessedCollective
	if errors.As(pe.Err, &g) {
		p.test, p.candidates = g.test, strings.Join(g.candidates, ",")
	}
	var f *failedRun
	if errors.As(pe.Err, &f) {
		p.test, p.failed = f.test, true
	}
	return p
}

// A guessedCollective is the reader's nccltests.ErrAmbiguous for the
// test of index test, with the collectives its table fits alike (the first
// was taken): readTables wraps it, so that diagnose can name them.
type guessedCollective struct {
	test       int
	candidates []string
	err        error
}

func (g *guessedCollective) Error() string { return g.err.Error() }
func (g *guessedCollective) Unwrap() error { return g.err }

// writeProblems writes the problems to w, a line each, in order; problems
// that say the same of several places (a test the model does not predict in
// each of a sweep's logs) share one line that names the places,
// "FILE:LINE, FILE:LINE: message", at the first one's turn: the first
// maxPlaces of them, and how many more ("FILE:LINE, ... and 990 more
// places: message"), so that a file of a thousand bad rows alike takes one
// short line.
func writeProblems(w io.Writer, problems []problem) {
	places := map[string][]string{}
	for _, p := range problems {
		if where := p.where(); where != "" {
			places[p.Message] = append(places[p.Message], where)
		}
	}
	done := map[string]bool{}
	for _, p := range problems {
		ps := places[p.Message]
		switch {
		case len(ps) < 2:
			fmt.Fprintln(w, p)
		case !done[p.Message]:
			done[p.Message] = true
			more := ""
			if len(ps) > maxPlaces {
				ps, more = ps[:maxPlaces], fmt.Sprintf(" and %d more places", len(ps)-maxPlaces)
			}
			fmt.Fprintf(w, "%s%s: %s\n", strings.Join(ps, ", "), more, p.Message)
		}
	}
}

// maxPlaces bounds the places one line of writeProblems names.
const maxPlaces = 10

// writeJSON writes v as one indented JSON object followed by a newline. A
// number that is not finite (a time that overflows, an infinite -floor),
// which JSON cannot hold and text prints as +Inf, is written as null.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	var bad *json.UnsupportedValueError
	if errors.As(err, &bad) {
		return enc.Encode(finiteJSON(reflect.ValueOf(v)))
	}
	return err
}

// packagePrefix is a Go package's name that its errors start with
// ("predict: nccl: no algorithm/protocol available ..."), which a command's
// user has no use for.
var packagePrefix = regexp.MustCompile(`(^|: )(?:predict|nccl|nccltests|commmodel|presets|topo|schedule|fit): `)

// userError is err's text without its packages' names.
func userError(err error) string {
	msg := err.Error()
	for {
		out := packagePrefix.ReplaceAllString(msg, "$1")
		if out == msg {
			return out
		}
		msg = out
	}
}
