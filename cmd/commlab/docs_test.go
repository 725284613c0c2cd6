package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the output blocks of README.md and docs/*.md with what the commands print")

// TestDocs runs every command that README.md and docs/*.md show, from the
// repository's root, as a reader would paste it:
//
//   - A ```sh block holds commands, one a line (a line ending in \
//     continues on the next), with '...' and "..." quoting, VAR=value
//     assignments and $VAR or ${VAR} expansion, and # comments. Pipes,
//     redirections, ; and && are refused, so that every line is one command.
//   - "go run ./cmd/commlab ARGS" (or "commlab ARGS") runs in this process
//     through run. It must exit 0, unless its comment says "exit status N".
//   - A ```go block is a whole program (package main), run with "go run".
//   - A ```text block right after a ```sh or ```go block is what the
//     block's last command prints: its stdout, or its stderr when it is
//     expected to fail. It must match; -update rewrites it.
//   - Commands that take minutes or need what a test cannot have (the
//     scripts, which install Jupyter; go test, go install and go get; the
//     reproduce subcommand, which TestReproduceJSON runs) are not run:
//     allowed checks that what they name exists.
//
// With -short (the race detector's pass of scripts/test.sh), each file's
// first block alone runs: the full pass has run them all.
//
// The files are checked concurrently, as many at a time as GOMAXPROCS, each
// file's blocks in order: the test stays in the repository's root
// throughout, and no file's commands read what another file's write.
func TestDocs(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	t.Chdir(root)
	docs := make([]docFile, len(files))
	for i, path := range files {
		name, _ := filepath.Rel(root, path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		blocks, err := fencedBlocks(lines)
		if err != nil {
			t.Fatalf("%s:%v", name, err)
		}
		docs[i] = docFile{path, name, lines, blocks}
	}
	counts := make([]int, len(docs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, d := range docs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			counts[i] = checkDocFile(t, d, root)
		}()
	}
	wg.Wait()
	commands := 0
	for _, n := range counts {
		commands += n
	}
	t.Logf("ran %d commands of README.md and docs/*.md", commands)
	if commands == 0 {
		t.Fatal("no commands found in README.md and docs/*.md")
	}
}

// A docFile is one Markdown file TestDocs checks: its path, its name
// relative to the repository's root, its lines and its fenced blocks.
type docFile struct {
	path, name string
	lines      []string
	blocks     []fencedBlock
}

// checkDocFile runs d's commands in order, compares what each block's last
// command prints with the text block that follows it (or, with -update,
// rewrites that block), and returns the number of commands. It may run on
// a goroutine of its own, so it reports with t.Errorf, never t.Fatal.
func checkDocFile(t *testing.T, d docFile, root string) (commands int) {
	name, lines, blocks := d.name, d.lines, d.blocks
	changed, first := false, true
	for i, b := range blocks {
		var out string
		var ran bool
		if b.lang == "sh" || b.lang == "go" {
			if testing.Short() && !*update && !first {
				continue
			}
			first = false
		}
		switch b.lang {
		case "sh":
			var n int
			out, ran, n = runShellBlock(t, name, b, root)
			commands += n
		case "go":
			out, ran = runGoBlock(t, name, b, root)
			commands++
		default:
			continue
		}
		if i+1 >= len(blocks) || blocks[i+1].lang != "text" || !onlyBlank(lines[b.end:blocks[i+1].start-1]) {
			continue
		}
		want := blocks[i+1]
		if !ran {
			t.Errorf("%s:%d: a text block follows a command that is not run", name, want.start)
			continue
		}
		got := normalize(out)
		if got == normalize(strings.Join(want.body, "\n")) {
			continue
		}
		if *update {
			blocks[i+1].replace = strings.Split(got, "\n")
			changed = true
			continue
		}
		t.Errorf("%s:%d: the output block differs from what the command prints "+
			"(go test ./cmd/commlab -run TestDocs -update rewrites it):\n--- shown\n%s\n--- printed\n%s",
			name, want.start, strings.Join(want.body, "\n"), got)
	}
	if changed {
		if err := os.WriteFile(d.path, []byte(strings.Join(rewrite(lines, blocks), "\n")), 0o644); err != nil {
			t.Errorf("%s: %v", name, err)
			return commands
		}
		t.Logf("%s: output blocks rewritten", name)
	}
	return commands
}

// A fencedBlock is one fenced code block of a Markdown file.
type fencedBlock struct {
	// lang is the first word of the fence's info string ("sh", "go").
	lang string
	// start and end are the 1-based lines of the opening and closing
	// fences; body holds the lines between, without the fence's indent.
	start, end int
	body       []string
	// replace, when not nil, is the body -update writes.
	replace []string
	indent  string
}

var fenceRE = regexp.MustCompile("^([ \t]*)(```+|~~~+)[ \t]*([^ \t`]*)")

// fencedBlocks returns the fenced code blocks of a Markdown file's lines.
func fencedBlocks(lines []string) ([]fencedBlock, error) {
	var blocks []fencedBlock
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := fencedBlock{lang: m[3], start: i + 1, indent: m[1]}
		closed := false
		for i++; i < len(lines); i++ {
			l := strings.TrimRight(lines[i], " \t")
			if strings.TrimLeft(l, " \t") == m[2] {
				closed = true
				break
			}
			b.body = append(b.body, strings.TrimPrefix(lines[i], m[1]))
		}
		if !closed {
			return nil, fmt.Errorf("%d: the block is not closed", b.start)
		}
		b.end = i + 1
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// rewrite returns lines with the bodies of the blocks that have a
// replacement replaced.
func rewrite(lines []string, blocks []fencedBlock) []string {
	var out []string
	next := 0 // the 0-based index of the next line to copy
	for _, b := range blocks {
		if b.replace == nil {
			continue
		}
		out = append(out, lines[next:b.start]...)
		for _, l := range b.replace {
			if l != "" {
				l = b.indent + l
			}
			out = append(out, l)
		}
		next = b.end - 1
	}
	return append(out, lines[next:]...)
}

func onlyBlank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// normalize drops trailing spaces and trailing empty lines, which a
// Markdown file does not keep reliably.
func normalize(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// A shellCommand is one command line of a ```sh block.
type shellCommand struct {
	line int      // 1-based, in the Markdown file
	args []string // after expansion; empty for an assignment
	exit int      // the exit status the comment expects
}

// runShellBlock runs the commands of b and returns what the last one
// printed, whether it ran, and the number of commands.
func runShellBlock(t *testing.T, name string, b fencedBlock, root string) (out string, ran bool, n int) {
	t.Helper()
	cmds, err := parseShell(b, map[string]string{})
	if err != nil {
		t.Errorf("%s:%v", name, err)
		return "", false, 0
	}
	for _, c := range cmds {
		if len(c.args) == 0 {
			continue
		}
		n++
		where := fmt.Sprintf("%s:%d: %s", name, c.line, strings.Join(c.args, " "))
		args, inProcess := commlabArgs(c.args)
		if !inProcess || len(args) > 0 && args[0] == "reproduce" {
			if err := allowed(c.args, root); err != nil {
				t.Errorf("%s: %v", where, err)
			}
			out, ran = "", false
			continue
		}
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code != c.exit {
			t.Errorf("%s: exit status %d, want %d\nstderr:\n%s", where, code, c.exit, stderr.String())
		}
		out, ran = stdout.String(), true
		if c.exit != 0 {
			out = stderr.String()
		}
	}
	return out, ran, n
}

var exitRE = regexp.MustCompile(`\bexit status (\d+)\b`)

// parseShell reads the commands of a ```sh block, with the assignments
// made in vars as they come.
func parseShell(b fencedBlock, vars map[string]string) ([]shellCommand, error) {
	var cmds []shellCommand
	for i := 0; i < len(b.body); i++ {
		line, at := b.body[i], b.start+1+i
		for strings.HasSuffix(line, `\`) && i+1 < len(b.body) {
			i++
			line = strings.TrimSuffix(line, `\`) + " " + b.body[i]
		}
		words, comment, err := splitShell(line, vars)
		if err != nil {
			return nil, fmt.Errorf("%d: %v", at, err)
		}
		c := shellCommand{line: at}
		if m := exitRE.FindStringSubmatch(comment); m != nil {
			c.exit, _ = strconv.Atoi(m[1])
		}
		// Leading NAME=value words are assignments; a line of them alone
		// sets shell variables, and before a command they are refused.
		for len(words) > 0 && isAssignment(words[0].raw) {
			k, v, _ := strings.Cut(words[0].text, "=")
			vars[k] = v
			words = words[1:]
			if len(words) > 0 {
				return nil, fmt.Errorf("%d: environment assignments before a command are not supported", at)
			}
		}
		for _, w := range words {
			c.args = append(c.args, w.text)
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

var assignmentRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func isAssignment(raw string) bool { return assignmentRE.MatchString(raw) }

// A shellWord is one word of a command line: raw as written, text after
// quote removal and expansion.
type shellWord struct{ raw, text string }

// splitShell splits a command line into words and its trailing comment.
func splitShell(line string, vars map[string]string) ([]shellWord, string, error) {
	var words []shellWord
	var raw, text strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, shellWord{raw.String(), text.String()})
		}
		raw.Reset()
		text.Reset()
		inWord = false
	}
	expand := func(s string, i int) (int, error) { // s[i] == '$'
		j := i + 1
		var name string
		if j < len(s) && s[j] == '{' {
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				return 0, fmt.Errorf("unclosed ${")
			}
			name, j = s[j+1:j+k], j+k+1
		} else {
			for j < len(s) && (s[j] == '_' || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9') {
				j++
			}
			name = s[i+1 : j]
		}
		v, ok := vars[name]
		if !ok {
			return 0, fmt.Errorf("$%s is not set in the block", name)
		}
		text.WriteString(v)
		raw.WriteString(s[i:j])
		return j, nil
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
			i++
		case c == '#' && !inWord:
			flush()
			return words, line[i:], nil
		case strings.IndexByte("|&;<>`()", c) >= 0:
			return nil, "", fmt.Errorf("%q: only simple commands are supported", c)
		case c == '\'':
			k := strings.IndexByte(line[i+1:], '\'')
			if k < 0 {
				return nil, "", fmt.Errorf("unclosed '")
			}
			inWord = true
			raw.WriteString(line[i : i+k+2])
			text.WriteString(line[i+1 : i+1+k])
			i += k + 2
		case c == '"':
			inWord = true
			raw.WriteByte('"')
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				switch line[i] {
				case '$':
					j, err := expand(line, i)
					if err != nil {
						return nil, "", err
					}
					i = j - 1
				case '\\', '`':
					return nil, "", fmt.Errorf("escapes in double quotes are not supported")
				default:
					raw.WriteByte(line[i])
					text.WriteByte(line[i])
				}
			}
			if i == len(line) {
				return nil, "", fmt.Errorf(`unclosed "`)
			}
			raw.WriteByte('"')
			i++
		case c == '$':
			inWord = true
			j, err := expand(line, i)
			if err != nil {
				return nil, "", err
			}
			i = j
		case c == '\\':
			return nil, "", fmt.Errorf("backslash escapes are not supported")
		default:
			inWord = true
			raw.WriteByte(c)
			text.WriteByte(c)
			i++
		}
	}
	flush()
	return words, "", nil
}

// commlabArgs returns the arguments of a commlab command line, "go run
// ./cmd/commlab ARGS" or "commlab ARGS", and whether args is one.
func commlabArgs(args []string) ([]string, bool) {
	switch {
	case len(args) >= 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/commlab":
		return args[3:], true
	case len(args) >= 1 && args[0] == "commlab":
		return args[1:], true
	}
	return nil, false
}

// allowed checks a command that the test does not run: what it names must
// exist. Any other command is an error, so that a new kind of command in
// the docs is either run here or added to this list on purpose.
func allowed(args []string, root string) error {
	module := "github.com/inframethod/commlab"
	dir := func(pkg string) error {
		pkg = strings.TrimSuffix(pkg, "/...")
		if rel, ok := strings.CutPrefix(pkg, module); ok {
			pkg = "." + rel
		}
		if !strings.HasPrefix(pkg, ".") {
			return fmt.Errorf("package %s is not of this module", pkg)
		}
		if fi, err := os.Stat(filepath.Join(root, pkg)); err != nil || !fi.IsDir() {
			return fmt.Errorf("no package %s", pkg)
		}
		return nil
	}
	switch {
	case strings.HasPrefix(args[0], "scripts/"):
		// The two commands and the notebook server install Jupyter and run
		// for minutes; scripts/test.sh runs them.
		fi, err := os.Stat(filepath.Join(root, args[0]))
		if err != nil {
			return err
		}
		if fi.Mode()&0o111 == 0 {
			return fmt.Errorf("%s is not executable", args[0])
		}
		return nil
	case args[0] == "go" && len(args) >= 3 && (args[1] == "install" || args[1] == "get"):
		pkg, version, ok := strings.Cut(args[2], "@")
		if !ok || version == "" {
			return fmt.Errorf("want PATH@VERSION")
		}
		if args[1] == "get" && pkg != module {
			return fmt.Errorf("go get of %s, want the module %s", pkg, module)
		}
		return dir(pkg)
	case args[0] == "go" && len(args) >= 2 && (args[1] == "test" || args[1] == "doc" || args[1] == "vet"):
		// go test is what runs this test; go doc and go vet read packages.
		n := 0
		for _, a := range args[2:] {
			if strings.HasPrefix(a, "./") || strings.HasPrefix(a, module) {
				if err := dir(a); err != nil {
					return err
				}
				n++
			}
		}
		if args[1] != "test" && args[1] != "vet" && n == 0 {
			return fmt.Errorf("go %s of no package of this module", args[1])
		}
		return nil
	}
	if a, ok := commlabArgs(args); ok && len(a) > 0 && a[0] == "reproduce" {
		// TestReproduceJSON runs it; the whole run takes seconds.
		if _, ok := commands["reproduce"]; !ok {
			return fmt.Errorf("no subcommand reproduce")
		}
		return nil
	}
	return fmt.Errorf("not a command the docs test runs or allows: run it in TestDocs or add it to allowed")
}

// runGoBlock runs a ```go block, a whole program, with go run from root,
// and returns its output.
func runGoBlock(t *testing.T, name string, b fencedBlock, root string) (string, bool) {
	t.Helper()
	src := strings.Join(b.body, "\n") + "\n"
	if !strings.HasPrefix(strings.TrimSpace(src), "package main") {
		t.Errorf("%s:%d: a go block must be a whole program (package main), so that it can be run", name, b.start)
		return "", false
	}
	file := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Errorf("%s:%d: %v", name, b.start, err)
		return "", false
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Errorf("%s:%d: go is not on PATH: %v", name, b.start, err)
		return "", false
	}
	cmd := exec.Command(gobin, "run", file)
	cmd.Dir = root
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Errorf("%s:%d: go run: %v\n%s", name, b.start, err, stderr.String())
		return "", false
	}
	return stdout.String(), true
}

// TestParseShell checks the little shell TestDocs reads, and that it
// refuses what it cannot run rather than running it wrongly.
func TestParseShell(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		body []string
		want [][]string // each command's arguments; nil for an assignment
		exit []int
		err  string
	}{
		{body: []string{"D=data/logs", "commlab fit $D/a.log ${D}/b.log   # a comment"},
			want: [][]string{nil, {"commlab", "fit", "data/logs/a.log", "data/logs/b.log"}}, exit: []int{0, 0}},
		{body: []string{`F="a b"`, `commlab predict "-gpu=$F x" 'it''s' -size '$F' \`, `    -json`},
			want: [][]string{nil, {"commlab", "predict", "-gpu=a b x", "its", "-size", "$F", "-json"}}, exit: []int{0, 0}},
		{body: []string{"commlab topo long_row.txt # exit status 1: a long row"},
			want: [][]string{{"commlab", "topo", "long_row.txt"}}, exit: []int{1}},
		{body: []string{"commlab fit $X"}, err: "$X is not set"},
		{body: []string{"commlab topo - < mybox.txt"}, err: "only simple commands"},
		{body: []string{"nvidia-smi topo -m | tee mybox.txt"}, err: "only simple commands"},
		{body: []string{"A=1 commlab claims"}, err: "assignments before a command"},
		{body: []string{`commlab fit "a.log`}, err: `unclosed "`},
	} {
		cmds, err := parseShell(fencedBlock{lang: "sh", start: 1, body: c.body}, map[string]string{})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want one containing %q", c.body, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.body, err)
			continue
		}
		if len(cmds) != len(c.want) {
			t.Errorf("%q: %d commands, want %d", c.body, len(cmds), len(c.want))
			continue
		}
		for i, cmd := range cmds {
			if fmt.Sprintf("%q", cmd.args) != fmt.Sprintf("%q", c.want[i]) || cmd.exit != c.exit[i] {
				t.Errorf("%q: command %d is %q exit %d, want %q exit %d", c.body, i, cmd.args, cmd.exit, c.want[i], c.exit[i])
			}
		}
	}
}

// TestFlagTable holds docs/cli.md's table of flags to the subcommands:
// every flag that a subcommand's -h lists has a row, and the row names that
// subcommand (or says "every subcommand that prints a table").
func TestFlagTable(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // flag name -> its row's subcommands column
	for _, line := range strings.Split(string(src), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`-") {
			continue
		}
		for _, f := range strings.Split(cells[1], ",") {
			rows[strings.Trim(strings.TrimSpace(f), "`")] = cells[3]
		}
	}
	for name := range commands {
		code, out, _ := runCLI(name, "-h")
		if code != 0 {
			t.Fatalf("%s -h: exit %d", name, code)
		}
		for _, line := range strings.Split(out, "\n") {
			fields := strings.Fields(line)
			if len(fields) == 0 || !strings.HasPrefix(line, "  -") {
				continue
			}
			flag := fields[0]
			subs, ok := rows[flag]
			switch {
			case !ok:
				t.Errorf("docs/cli.md has no row for %s's flag %s", name, flag)
			case !strings.Contains(subs, "every subcommand") && !slices.Contains(strings.Split(strings.ReplaceAll(subs, " ", ""), ","), name):
				t.Errorf("docs/cli.md: the row of %s does not name %s (%q)", flag, name, strings.TrimSpace(subs))
			}
		}
	}
}

// TestDocsQuoteWarnings: the warnings docs/cli.md, docs/compare.md and docs/predict.md
// quote in blocks of their own (standard error, which TestDocs does not
// compare) are what the commands print.
func TestDocsQuoteWarnings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		doc  string
		args []string
	}{
		{"cli.md", []string{"fit", "-list", "data/logs/h20-3e_2x2_alltoall_nccltests321.log"}},
		{"compare.md", []string{"compare", "data/logs/paired/h100-sxm-ib8xndr/allreduce_issue290.log", "data/logs/paired/h100-sxm-ib8xndr/allreduce_issue290.log"}},
		// The first example of predict.md (README.md's), whose notes the
		// page reads one by one.
		{"predict.md", []string{"predict", "-calibrate", "data/logs/paired/h100-sxm-10node-cluster01/nccl_N10_G1.log,data/logs/paired/h100-sxm-10node-cluster01/nccl_N10_G2.log," +
			"data/logs/paired/h100-sxm-10node-cluster01/nccl_N10_G4.log,data/logs/paired/h100-sxm-10node-cluster01/nccl_N1_G8_cnode3-002.log",
			"-collective", "allreduce", "-p", "80", "-per-node", "8", "-size", "64MiB,1GiB"}},
	} {
		doc, err := os.ReadFile(filepath.Join("../../docs", c.doc))
		if err != nil {
			t.Fatal(err)
		}
		args := slices.Clone(c.args)
		for i, a := range args {
			files := strings.Split(a, ",")
			for k, f := range files {
				if strings.HasPrefix(f, "data/") {
					files[k] = "../../" + f
				}
			}
			args[i] = strings.Join(files, ",")
		}
		code, _, stderr := runCLI(args...)
		stderr = strings.ReplaceAll(stderr, "../../data/", "data/")
		if code != 0 || stderr == "" || !strings.Contains(string(doc), "```\n"+stderr+"```\n") {
			t.Errorf("docs/%s: commlab %v: exit %d; the page does not quote its standard error in a block of its own:\n%s", c.doc, c.args, code, stderr)
		}
	}
}
