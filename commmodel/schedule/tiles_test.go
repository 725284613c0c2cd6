package schedule

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// whole is Simulate's check without tiles: NewRanks, Fill, Run, Check.
func whole(s *Schedule, seed uint64) (string, error) {
	m, err := NewRanks(s)
	if err != nil {
		return "", err
	}
	m.Fill(seed)
	m.Run()
	return m.Check(seed), nil
}

// breakings are ways to spoil a schedule, each keeping it tileable: the
// last step dropped, a transfer one element short, a copy made a
// reduction (or the reverse), a transfer from the wrong rank.
var breakings = []struct {
	name string
	do   func(s *Schedule) bool // false: nothing to spoil
}{
	{"last step dropped", func(s *Schedule) bool {
		if len(s.Steps) == 0 {
			return false
		}
		s.Steps = s.Steps[:len(s.Steps)-1]
		return true
	}},
	{"transfer short", func(s *Schedule) bool {
		return spoil(s, func(t *Transfer) bool {
			if t.Len < 2 {
				return false
			}
			t.Len--
			return true
		})
	}},
	{"op flipped", func(s *Schedule) bool {
		return spoil(s, func(t *Transfer) bool {
			t.Op = 1 - t.Op
			return true
		})
	}},
	{"wrong source", func(s *Schedule) bool {
		return spoil(s, func(t *Transfer) bool {
			if s.P < 2 {
				return false
			}
			t.Src = (t.Src + 1) % s.P
			return true
		})
	}},
}

// spoil applies f to the first transfer of the middle step that moves data
// and that f accepts.
func spoil(s *Schedule, f func(t *Transfer) bool) bool {
	if len(s.Steps) == 0 {
		return false
	}
	step := s.Steps[len(s.Steps)/2]
	for i := range step {
		if step[i].Len > 0 && step[i].moves() && f(&step[i]) {
			return true
		}
	}
	return false
}

// TestTiledIsWhole: a tiled simulation gives the whole simulation's result,
// to the mismatch message and the error, for every tileable schedule of
// every algorithm at P up to 24, sizes that do and do not divide, tiles of
// 16 and 48 elements and one that holds the whole buffer, on right
// schedules and on the spoiled ones of breakings. The ring, the trees, the
// ring ReduceScatter and AllGather and the pipelined broadcast must be
// tileable, so that the comparison covers them.
func TestTiledIsWhole(t *testing.T) {
	const eb = DefaultElemBytes
	compared := map[string]int{}
	for p := 1; p <= 24; p++ {
		even := evenElems(p)
		for _, n := range []int{even, 2*even + 7, 13} {
			for _, a := range scheduled(p) {
				s, err := NewElem(a, p, int64(n*eb), eb)
				if err != nil {
					t.Fatalf("%s P=%d n=%d: %v", describe(a), p, n, err)
				}
				if !s.tileable() {
					continue
				}
				compared[a.Collective().String()+"/"+a.Name()]++
				for bi := -1; bi < len(breakings); bi++ {
					name := fmt.Sprintf("%s/P=%d/n=%d", describe(a), p, n)
					if bi >= 0 {
						s, _ = NewElem(a, p, int64(n*eb), eb)
						if !breakings[bi].do(s) {
							continue
						}
						name += "/" + breakings[bi].name
					}
					seed := uint64(p*131 + n)
					want, wantErr := whole(s, seed)
					if bi < 0 && (wantErr != nil || want != "") {
						t.Fatalf("%s: the whole simulation fails: %v %s", name, wantErr, want)
					}
					for _, tile := range []int{16, 48, s.Len + 16} {
						got, err := simulateTiled(s, seed, tile)
						if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
							t.Errorf("%s, tiles of %d: %q, %v; whole: %q, %v", name, tile, got, err, want, wantErr)
						}
					}
				}
			}
		}
	}
	for _, must := range []string{"allreduce/ring", "allreduce/tree", "reducescatter/ring", "allgather/ring", "broadcast/pipelined", "allreduce/halving-doubling"} {
		if compared[must] == 0 {
			t.Errorf("%s: no tileable schedule (compared: %v)", must, compared)
		}
	}
}

// TestTiledDetects: spoiled tileable schedules fail the tiled check (the
// comparison above would pass if both paths judged everything right).
func TestTiledDetects(t *testing.T) {
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.Tree{PerNode: 4, Chunks: 2}, commmodel.RingAllGather{}, commmodel.PipelinedBroadcast{Chunks: 4}} {
		for _, b := range breakings {
			s, err := New(a, 8, 4*1024)
			if err != nil {
				t.Fatal(err)
			}
			if !b.do(s) {
				t.Fatalf("%s: %s: nothing to spoil", describe(a), b.name)
			}
			mis, err := simulateTiled(s, 9, 32)
			if err == nil && mis == "" {
				t.Errorf("%s, %s: judged right by tiles", describe(a), b.name)
			}
		}
	}
}

// TestTileableLayout: every schedule that Footprint counts as tileable from
// its layout is (so that Footprint never counts tiles for a simulation that
// holds whole buffers).
func TestTileableLayout(t *testing.T) {
	const eb = DefaultElemBytes
	for _, p := range []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32} {
		for _, n := range []int{evenElems(p), 13} {
			for _, a := range scheduled(p) {
				lay, err := layoutOf(a, p, int64(n*eb), eb)
				if err != nil {
					t.Fatal(err)
				}
				s, err := NewElem(a, p, int64(n*eb), eb)
				if err != nil {
					t.Fatal(err)
				}
				if lay.tileable(a.Collective()) && !s.tileable() {
					t.Errorf("%s P=%d n=%d: the layout says tileable, the schedule is not", describe(a), p, n)
				}
			}
		}
	}
}

// fuzzSchedule builds a small tileable schedule from b: the collective
// (b[0] mod 4, the root b[0]/4 mod P), P = 1 + b[1] mod 8, n = 1 + b[2]
// elements, then a transfer every five bytes (source, destination, offset
// mod n, length mod what is left, Reduce if odd) with SrcOff = DstOff, and a
// new step wherever the first of the five is 255; nil if b is too short.
func fuzzSchedule(b []byte) *Schedule {
	if len(b) < 3 {
		return nil
	}
	colls := []commmodel.Collective{commmodel.AllReduce, commmodel.ReduceScatter, commmodel.AllGather, commmodel.Broadcast}
	p, n := 1+int(b[1])%8, 1+int(b[2])
	s := &Schedule{Algorithm: "fuzz", Collective: colls[int(b[0])%len(colls)], P: p, Size: int64(n * DefaultElemBytes),
		ElemBytes: DefaultElemBytes, Len: n, Root: int(b[0]/4) % p}
	var step []Transfer
	for rest := b[3:]; len(rest) >= 5; rest = rest[5:] {
		if rest[0] == 255 {
			s.Steps, step = append(s.Steps, step), nil
			continue
		}
		off := int(rest[2]) % n
		step = append(step, Transfer{Src: int(rest[0]) % p, Dst: int(rest[1]) % p, SrcOff: off, DstOff: off,
			Len: int(rest[3]) % (n - off + 1), Op: Op(rest[4] % 2)})
	}
	s.Steps = append(s.Steps, step)
	return s
}

// FuzzTiles holds the tiled simulation of fuzzSchedule's schedules to the
// whole one: the same Check message, or the same error for a schedule
// that hazards refuses. Random transfers reach what the algorithms'
// schedules do not: reductions into one range from several ranks, copies
// that overlap, sources written in their own step. The corpus in
// testdata/fuzz/FuzzTiles holds one of each outcome (TestFuzzTilesCorpus).
func FuzzTiles(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		s := fuzzSchedule(b)
		if s == nil {
			return
		}
		seed := uint64(len(b))
		want, wantErr := whole(s, seed)
		for _, tile := range []int{16, 32} {
			got, err := simulateTiled(s, seed, tile)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
				t.Fatalf("tiles of %d: %q, %v; whole: %q, %v", tile, got, err, want, wantErr)
			}
		}
	})
}

// TestFuzzTilesCorpus: the corpus's schedules do what their names say, so
// that FuzzTiles's seeds cover a right result, a refusal and a wrong one:
// an AllReduce of 2 ranks by a reduction and a copy back, the same in one
// step (each rank's source written in that step: a snapshot), two copies
// into one range of a step (refused), and a ReduceScatter of 3 ranks that
// leaves one part unreduced.
func TestFuzzTilesCorpus(t *testing.T) {
	for _, c := range []struct {
		name  string
		b     []byte
		right bool
		fails bool // refused by hazards
	}{
		{"reduce_then_copy", []byte{0, 1, 2, 0, 1, 0, 3, 1, 255, 0, 0, 0, 0, 1, 0, 0, 3, 0}, true, false},
		{"swap_in_one_step", []byte{0, 1, 2, 0, 1, 0, 3, 1, 1, 0, 0, 3, 1}, true, false},
		{"overlapping_copies", []byte{0, 2, 2, 0, 1, 0, 3, 0, 2, 1, 1, 2, 0}, false, true},
		{"reducescatter_short", []byte{1, 2, 39, 0, 1, 0, 40, 1, 1, 0, 0, 13, 1, 2, 0, 0, 13, 1}, false, false},
	} {
		raw, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzTiles", c.name))
		if err != nil {
			t.Fatal(err)
		}
		lit, ok := strings.CutPrefix(string(raw), "go test fuzz v1\n[]byte(")
		lit, ok2 := strings.CutSuffix(lit, ")\n")
		if b, err := strconv.Unquote(lit); !ok || !ok2 || err != nil || b != string(c.b) {
			t.Errorf("%s: the corpus file holds %q, want the bytes %v", c.name, raw, c.b)
		}
		mis, err := whole(fuzzSchedule(c.b), uint64(len(c.b)))
		if (err != nil) != c.fails || (err == nil && (mis == "") != c.right) {
			t.Errorf("%s: error %v, mismatch %q; want right %v, refused %v", c.name, err, mis, c.right, c.fails)
		}
	}
}
