package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

func init() {
	register("version", "print commlab's version, to cite with its results", runVersion)
}

// runVersion runs "commlab version": the module version and, for a build
// from a git work tree, the commit it was built from.
func runVersion(args []string, stdout io.Writer) error {
	fs := newFlags("version")
	if _, err := parseFlags(fs, args, 0); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "commlab", commlabVersion())
	if rev := commlabRevision(); rev != "" {
		fmt.Fprintln(stdout, "revision", rev)
	}
	return nil
}

// commlabVersion is the module version of this build ("(devel)" for a
// build from a work tree).
func commlabVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(unknown version)"
}

// commlabRevision is the VCS commit of this build with its time, and
// "+modified" when the work tree had changes; "" when the build did not
// record one (go test, go install of a module version).
func commlabRevision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, at, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = " " + s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " +modified"
			}
		}
	}
	if rev == "" {
		return ""
	}
	return rev + at + modified
}
