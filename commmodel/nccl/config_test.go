package nccl

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestNewRefusesBadFloats: New refuses a NetOverhead, and every value of
// a Constants it is given, that is NaN, infinite or negative (Config's
// float fields; the graphs' are Graphs.check's). A NaN NetOverhead made
// Time NaN with ok true and Choose return a NaN estimate with no error (a
// red team's report). The walk below sets each float of Constants in turn,
// so a field added to Constants is checked here too.
func TestNewRefusesBadFloats(t *testing.T) {
	base := hopperConfig(Latest, 4, PathPIX) // across nodes, where NetOverhead counts
	for _, o := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1} {
		cfg := base
		cfg.NetOverhead = &o
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "NetOverhead") {
			t.Errorf("NetOverhead %g: error %v, want one naming NetOverhead", o, err)
		}
	}
	for _, o := range []float64{0, 1} {
		cfg := base
		cfg.NetOverhead = &o
		m, err := New(cfg)
		if err != nil {
			t.Fatalf("NetOverhead %g: %v", o, err)
		}
		tm, ok := m.Time(FuncAllReduce, AlgoRing, Simple, 1<<20)
		e, err := m.Choose(FuncAllReduce, 1<<20)
		if !ok || math.IsNaN(tm) || math.IsInf(tm, 0) || err != nil || math.IsNaN(e.Time) {
			t.Errorf("NetOverhead %g: Time %g %v, Choose %+v %v; want finite times", o, tm, ok, e, err)
		}
	}

	// NCCL's own constants, given as Constants, pass for every version
	// whose table differs.
	for _, v := range []Version{Legacy, Oldest, {2, 23, 4}, {2, 28, 3}, Latest} {
		c := DefaultConstants(v)
		cfg := hopperConfig(v, 4, PathPIX)
		cfg.Constants = &c
		if _, err := New(cfg); err != nil {
			t.Errorf("DefaultConstants(%v) given: %v", v, err)
		}
	}
	// Each float of Constants in turn NaN, +Inf and -1: refused, naming it.
	leaves := 0
	var walk func(v reflect.Value, name string, set func(reflect.Value))
	walk = func(v reflect.Value, name string, set func(reflect.Value)) {
		switch v.Kind() {
		case reflect.Float64:
			leaves++
			set(v)
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), name, set)
			}
		default:
			t.Fatalf("Constants.%s holds a %s, which New does not check", name, v.Kind())
		}
	}
	typ := reflect.TypeFor[Constants]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		for _, bad := range []float64{math.NaN(), math.Inf(1), -1} {
			idx := 0
			for {
				c := DefaultConstants(Latest)
				k, hit := 0, false
				walk(reflect.ValueOf(&c).Elem().Field(i), name, func(x reflect.Value) {
					if k == idx {
						x.SetFloat(bad)
						hit = true
					}
					k++
				})
				if !hit {
					break
				}
				cfg := base
				cfg.Constants = &c
				if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "Constants."+name) {
					t.Errorf("Constants.%s value %d set to %g: error %v, want one naming it", name, idx, bad, err)
				}
				idx++
			}
		}
	}
	if leaves == 0 {
		t.Fatal("no float in Constants")
	}
}
