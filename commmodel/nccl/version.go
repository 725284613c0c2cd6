package nccl

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is an NCCL release, 2.Minor.Patch. The model is tabulated for
// NCCL 2.8.x and for 2.18.0 to 2.30.x (DefaultConstants says what changes
// between them); 2.9 to 2.17 are not.
type Version struct {
	Major, Minor, Patch int
}

// Latest is the newest NCCL release whose tuning model this package follows
// (NCCL 2.30.7, tag v2.30.7-1).
var Latest = Version{2, 30, 7}

// Supported versions run from Oldest to the 2.30 series, and the 2.8 series
// (Legacy) besides.
var Oldest = Version{2, 18, 0}

// OldestFor returns the oldest release the model follows that builds code
// for a GPU of compute capability cc (times ten): NCCL builds Blackwell's code
// (sm_100, sm_120) from 2.25.1 on (makefiles/common.mk, tag v2.25.1-1,
// with CUDA 12.8; 2.24.3 builds none), Oldest for the GPUs before it.
func OldestFor(cc int) Version {
	if cc >= 100 {
		return Version{2, 25, 1}
	}
	return Oldest
}

// Legacy is the release of the 2.8 series whose tuning model this package
// follows (NCCL 2.8.4, tag v2.8.4-1; 2.8.3's tuning.cc and enqueue.cc
// choose alike).
var Legacy = Version{2, 8, 4}

// ParseVersion reads a version as NCCL and nccl-tests print it: "2.21.5",
// "2.21.5+cuda12.4", "v2.21.5-1", or NCCL's integer code "22907" (2.29.7;
// nccl-tests' "nccl-library=22907"). A missing patch level is 0; a version
// that is no Release (3.0.0, 35000) is an error.
func ParseVersion(s string) (Version, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "NCCL version "), "v")
	if i := strings.IndexAny(t, "+-"); i >= 0 {
		t = t[:i]
	}
	if !strings.Contains(t, ".") {
		code, err := strconv.Atoi(t)
		switch {
		case err == nil && code >= 2000 && code < 2900:
			// NCCL_VERSION_CODE to 2.8: major*1000 + minor*100 + patch
			// (nccl.h's NCCL_VERSION), 2804 for 2.8.4.
			return Version{code / 1000, code / 100 % 10, code % 100}, nil
		case err != nil || code < 20000 || code > 29999:
			return Version{}, fmt.Errorf("nccl: version %q: want 2.MINOR.PATCH or a code such as 22907 (2804 to 2.8)", s)
		}
		// NCCL_VERSION_CODE from 2.9 on: major*10000 + minor*100 + patch.
		return Version{code / 10000, code / 100 % 100, code % 100}, nil
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("nccl: version %q: want 2.MINOR.PATCH", s)
	}
	var v [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return Version{}, fmt.Errorf("nccl: version %q: %q is not a number", s, p)
		}
		v[i] = n
	}
	if !(Version{v[0], v[1], v[2]}).Release() {
		return Version{}, fmt.Errorf("nccl: version %q is no NCCL release: want 2.MINOR.PATCH", s)
	}
	return Version{v[0], v[1], v[2]}, nil
}

// Release reports whether v is written as an NCCL release is: major 2, and
// a minor and a patch level of at least 0. Which of those the tuning model
// follows is Supported's to say.
func (v Version) Release() bool {
	return v.Major == 2 && v.Minor >= 0 && v.Patch >= 0
}

// String returns "2.21.5".
func (v Version) String() string {
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// Before reports whether v is older than u.
func (v Version) Before(u Version) bool {
	if v.Major != u.Major {
		return v.Major < u.Major
	}
	if v.Minor != u.Minor {
		return v.Minor < u.Minor
	}
	return v.Patch < u.Patch
}

// Supported reports whether the model is tabulated for v (2.8.x, and 2.18.0
// to 2.30.x), with an error that says why not.
func (v Version) Supported() error {
	if !v.legacy() && (v.Before(Oldest) || !v.Before(untabulated)) {
		return fmt.Errorf("nccl: version %v: the model is tabulated for NCCL 2.8.x and %v to 2.30.x", v, Oldest)
	}
	return nil
}

// untabulated is the first release after the series the model follows.
var untabulated = Version{2, 31, 0}

// orLatest returns v, or Latest for the zero Version: wherever this package
// takes a version (Config.Version, DefaultConstants, System.Graphs,
// RuntimeChannels, AlgoListAt), the zero Version means the newest release.
func (v Version) orLatest() Version {
	if v == (Version{}) {
		return Latest
	}
	return v
}

// tabulated returns the release whose tables stand for v (orLatest's for
// the zero Version): v where Supported takes it, Latest after the 2.30
// series (a version that is no release, such as 3.0.0, included), and
// Oldest before 2.18 other than the 2.8 series.
func (v Version) tabulated() Version {
	v = v.orLatest()
	switch {
	case v.legacy():
		return v
	case v.Before(Oldest):
		return Oldest
	case !v.Before(untabulated):
		return Latest
	}
	return v
}

// legacy reports whether v is of the 2.8 series, whose tuner predates
// 2.18's: three algorithms (Tree, Ring, CollNet), no network overhead, and
// per-function LL128 caps.
func (v Version) legacy() bool { return v.Major == 2 && v.Minor == 8 }

// from reports whether v is 2.minor.patch or later.
func (v Version) from(minor, patch int) bool {
	return !v.Before(Version{2, minor, patch})
}
