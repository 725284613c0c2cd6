package nbcheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readCommitted reads a committed notebook of notebooks/ by file name.
func readCommitted(t *testing.T, name string) notebook {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", name))
	if err != nil {
		t.Fatal(err)
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatal(err)
	}
	return nb
}

// cellOutput is the text of every stream and Markdown output of c.
func cellOutput(c cell) string {
	var b strings.Builder
	for _, o := range c.Outputs {
		b.WriteString(string(o.Text))
		b.WriteString(string(o.Data["text/markdown"]))
	}
	return b.String()
}

// Notebook 05's "Your own log" cell names a file by a path relative to
// notebooks/, the kernel's working folder: the file is there, and the
// committed outputs show its runs table, named by the file.
func TestOwnLogCell(t *testing.T) {
	nb := readCommitted(t, "05_fitting.ipynb")
	re := regexp.MustCompile(`(?m)^var myLog = "([^"]+)"`)
	found := false
	for _, c := range nb.Cells {
		m := re.FindStringSubmatch(string(c.Source))
		if m == nil {
			continue
		}
		found = true
		if _, err := os.Stat(filepath.Join("..", m[1])); err != nil {
			t.Errorf("myLog: %v", err)
		}
		out := cellOutput(c)
		if !strings.Contains(out, "| "+filepath.Base(m[1])+" |") {
			t.Errorf("the cell's outputs do not show %s in a table:\n%s", filepath.Base(m[1]), out)
		}
	}
	if !found {
		t.Error(`05_fitting.ipynb has no cell setting var myLog = "PATH"`)
	}
}
