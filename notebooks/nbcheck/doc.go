// Package nbcheck reads an executed Jupyter notebook (.ipynb JSON) and reports
// what went wrong in it.
//
// jupyter nbconvert --execute exits 0 when a GoNB cell panics, calls log.Fatal
// or os.Exit(n), or runs a failing "!" shell line: GoNB reports those on the
// cell's stderr stream ("panic: ...", "exit status N") instead of raising an
// error. The runner (scripts/notebooks.sh) therefore executes each notebook and
// then asks this package whether the result is clean: no error output, no such
// stderr lines, every code cell executed, and at least one image/png output.
//
// CheckFormat checks the format the notebooks are kept in, executed or not:
// nbformat 4.5 or later, and in every cell an id that no other cell has.
package nbcheck
