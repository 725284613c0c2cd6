package doclint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module path; root, the module's directory from here.
const (
	module = "github.com/inframethod/commlab/"
	root   = "../.."
)

var (
	// errRef is a sentinel error a comment names, bare (ErrNumber) or
	// qualified (nccltests.ErrNumber, and a mistyped nccltests.nccltests.ErrNumber).
	errRef = regexp.MustCompile(`\b((?:[a-z]\w*\.)*)(Err[A-Z]\w*)\b`)
	// itsField is a field a struct type's comment names as its own ("Its
	// Err is ErrBadSample").
	itsField = regexp.MustCompile(`\bIts ([A-Z]\w*) (?:is|field)\b`)
)

// pkg is what the test knows of one package of the module: the names it
// declares at top level, its files, and the directories of the module's
// packages it imports, by the name it imports them under.
type pkg struct {
	names   map[string]bool
	files   []*ast.File
	imports map[string]string
}

// TestDocReferences: every sentinel error a doc comment of the module's
// code names exists, declared by the package itself or, named bare or
// qualified by its import name, by a package of the module it imports; and
// a struct type's comment names only fields it has as "Its F is". Two such
// comments were wrong: fit.SampleError's named an Err field it lacks, and
// data.ReadTidyCSV's a nccltests.nccltests.ErrNumber (a red team's report).
func TestDocReferences(t *testing.T) {
	pkgs := map[string]*pkg{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "testdata" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		p := pkgs[dir]
		if p == nil {
			p = &pkg{names: map[string]bool{}, imports: map[string]string{}}
			pkgs[dir] = p
		}
		p.files = append(p.files, f)
		for _, im := range f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			if rel, ok := strings.CutPrefix(ip, module); ok {
				name := filepath.Base(ip)
				if im.Name != nil {
					name = im.Name.Name
				}
				p.imports[name] = filepath.Join(root, rel)
			}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							p.names[n.Name] = true
						}
					case *ast.TypeSpec:
						p.names[s.Name.Name] = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					p.names[d.Name.Name] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("%d packages found under %s", len(pkgs), root)
	}
	var bad []string
	for dir, p := range pkgs {
		// resolve reports whether name, qualified by q ("" when bare), is
		// declared where the comment can mean.
		resolve := func(q, name string) bool {
			if q != "" {
				d, ok := p.imports[q]
				return ok && pkgs[d] != nil && pkgs[d].names[name]
			}
			if p.names[name] {
				return true
			}
			for _, d := range p.imports {
				if pkgs[d] != nil && pkgs[d].names[name] {
					return true
				}
			}
			return false
		}
		for _, f := range p.files {
			ast.Inspect(f, func(n ast.Node) bool {
				var doc *ast.CommentGroup
				var fields []string // of a struct type whose comment doc is
				switch n := n.(type) {
				case *ast.FuncDecl:
					doc = n.Doc
				case *ast.GenDecl:
					doc = n.Doc
					if len(n.Specs) == 1 {
						if ts, ok := n.Specs[0].(*ast.TypeSpec); ok {
							if st, ok := ts.Type.(*ast.StructType); ok {
								for _, fl := range st.Fields.List {
									for _, nm := range fl.Names {
										fields = append(fields, nm.Name)
									}
								}
							}
						}
					}
				case *ast.ValueSpec:
					doc = n.Doc
				case *ast.TypeSpec:
					doc = n.Doc
				case *ast.Field:
					doc = n.Doc
				}
				if doc == nil {
					return true
				}
				text := doc.Text()
				for _, m := range errRef.FindAllStringSubmatch(text, -1) {
					if !resolve(strings.TrimSuffix(m[1], "."), m[2]) {
						bad = append(bad, dir+": "+m[0]+" is declared nowhere the comment can mean")
					}
				}
				if fields != nil {
					for _, m := range itsField.FindAllStringSubmatch(text, -1) {
						if !slices.Contains(fields, m[1]) {
							bad = append(bad, dir+": \""+m[0]+"\": the type has no field "+m[1])
						}
					}
				}
				return true
			})
		}
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Error(b)
	}
}
