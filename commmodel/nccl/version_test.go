package nccl

import (
	"reflect"
	"testing"
)

// TestOldestFor: Blackwell (compute capability 10.0 and later) runs on
// the releases that build its code, from 2.25.1 (makefiles/common.mk); the
// GPUs before it on every release the model follows.
func TestOldestFor(t *testing.T) {
	for _, c := range []struct {
		cc   int
		want Version
	}{{70, Oldest}, {90, Oldest}, {100, Version{2, 25, 1}}, {103, Version{2, 25, 1}}, {120, Version{2, 25, 1}}, {0, Oldest}} {
		if got := OldestFor(c.cc); got != c.want {
			t.Errorf("OldestFor(%d) = %v, want %v", c.cc, got, c.want)
		}
	}
}

// TestZeroVersionIsLatest: the zero Version is Latest wherever a version is
// taken, as Config.Version documents it. DefaultConstants read it as the
// oldest table (2.18's), so the idiom c := DefaultConstants(cfg.Version);
// cfg.Constants = &c swapped 2.18's constants into a Config of Latest and
// changed the tuner's choices on a B200 2 x 8 (a red team's report); and
// System.Graphs searched the zero Version with 2.18's link rates and speed
// arrays. A version after the 2.30 series, such as 3.0.0, which is no
// release, is Latest's table, and one before Oldest other than 2.8 is
// Oldest's, as New's Supported refuses both and DefaultConstants has no
// error to return.
func TestZeroVersionIsLatest(t *testing.T) {
	latest := DefaultConstants(Latest)
	if c := DefaultConstants(Version{}); !reflect.DeepEqual(c, latest) {
		t.Errorf("DefaultConstants(Version{}) differs from DefaultConstants(Latest)")
	}
	for _, v := range []Version{{2, 31, 0}, {3, 0, 0}, {3, 8, 0}} {
		if c := DefaultConstants(v); !reflect.DeepEqual(c, latest) {
			t.Errorf("DefaultConstants(%v) differs from DefaultConstants(Latest)", v)
		}
	}
	for _, v := range []Version{{2, 12, 0}, {2, 9, 2}, {1, 0, 0}, {2, -1, 0}} {
		if c := DefaultConstants(v); !reflect.DeepEqual(c, DefaultConstants(Oldest)) {
			t.Errorf("DefaultConstants(%v) differs from DefaultConstants(Oldest)", v)
		}
	}
	if c := DefaultConstants(Version{2, 8, 3}); !reflect.DeepEqual(c, DefaultConstants(Legacy)) {
		t.Errorf("DefaultConstants(2.8.3) differs from DefaultConstants(Legacy)")
	}

	g, err := ParseGPU("B200")
	if err != nil {
		t.Fatal(err)
	}
	s := System{GPU: g, GPUsPerNode: 8, Nodes: 2, NVSwitch: true, NICs: 8, NICBW: 50e9, NVLS: true}
	zg, err := s.Graphs(Version{})
	if err != nil {
		t.Fatal(err)
	}
	lg, err := s.Graphs(Latest)
	if err != nil {
		t.Fatal(err)
	}
	if zg != lg {
		t.Errorf("System.Graphs(Version{}) = %+v, want Graphs(Latest) %+v", zg, lg)
	}
	// The documented idiom for changing one constant leaves every choice
	// as it was when the constants are left as they are.
	cfg, err := s.Config(Version{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultConstants(cfg.Version)
	cfg.Constants = &c
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []float64{1 << 10, 1 << 20, 64 << 20, 1 << 30} {
		ea, errA := a.Choose(FuncAllReduce, size)
		eb, errB := b.Choose(FuncAllReduce, size)
		if ea != eb || errA != nil || errB != nil {
			t.Errorf("%g B: %+v %v with the default constants, %+v %v with DefaultConstants(cfg.Version) given", size, ea, errA, eb, errB)
		}
	}
}
