package schedule

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// naive simulates s the obvious way and returns what Simulate's check must:
// "" if every output element is right, else the first wrong one (lowest
// rank, then lowest offset), or the error of a schedule that hazards
// refuses. It holds whole buffers, fills and checks them element by element
// from the layouts in sim.go's notes, copies every buffer at the start of
// each step and reads every source from that copy, and sums each reference
// over the ranks one input at a time.
func naive(s *Schedule, seed uint64) (string, error) {
	if _, err := s.hazards(); err != nil {
		return "", err
	}
	n, p := s.Elems(), s.P
	inputs := make([][]value, p)
	for q := range inputs {
		h := splitmix64(seed, 1<<63|uint64(q))
		inputs[q] = make([]value, n)
		for k := range inputs[q] {
			inputs[q][k] = value(h) + (value(h>>32)|1)*value(splitmix64(seed, uint64(k)))
		}
	}
	input := func(q, k int) value { return inputs[q][k] }
	part := func(r int) (lo, hi int) { return partBounds(n, p, r) }
	// inputAt and outputAt say which element of rank r's input or output
	// offset o holds, if any.
	inputAt := func(r, o int) (int, bool) {
		k := o - s.InOff
		switch s.Collective {
		case commmodel.AllGather:
			lo, hi := part(r)
			k = o - s.OutOff
			return k, k >= lo && k < hi
		case commmodel.Broadcast:
			return k, r == s.Root && k >= 0 && k < n
		}
		return k, k >= 0 && k < n
	}
	outputAt := func(r, o int) (int, bool) {
		k := o - s.OutOff
		switch s.Collective {
		case commmodel.ReduceScatter:
			lo, hi := part(r)
			return k, k >= lo && k < hi
		case commmodel.AllToAll:
			lo, hi := part(r)
			return k, k >= 0 && k < p*(hi-lo)
		}
		return k, k >= 0 && k < n
	}
	want := func(r, k int) value {
		switch s.Collective {
		case commmodel.AllGather:
			for q := range p {
				if lo, hi := part(q); k >= lo && k < hi {
					return input(q, k)
				}
			}
		case commmodel.Broadcast:
			return input(s.Root, k)
		case commmodel.AllToAll:
			lo, hi := part(r)
			return input(k/(hi-lo), lo+k%(hi-lo))
		case commmodel.SendRecv:
			return input((r+p-1)%p, k)
		}
		var sum value
		for q := range p {
			sum += input(q, k)
		}
		return sum
	}
	bufs := make([][]value, p)
	for r := range bufs {
		bufs[r] = make([]value, s.Len)
		for o := range bufs[r] {
			if k, ok := inputAt(r, o); ok {
				bufs[r][o] = input(r, k)
			} else if k, ok := outputAt(r, o); ok {
				bufs[r][o] = ^want(r, k)
			}
		}
	}
	start := make([][]value, p)
	for _, step := range s.Steps {
		for r := range bufs {
			start[r] = append(start[r][:0], bufs[r]...)
		}
		for _, t := range step {
			if !t.moves() {
				continue
			}
			for i := range t.Len {
				v := start[t.Src][t.SrcOff+i]
				if t.Op == Copy {
					bufs[t.Dst][t.DstOff+i] = v
				} else {
					bufs[t.Dst][t.DstOff+i] += v
				}
			}
		}
	}
	for r := range bufs {
		for o, got := range bufs[r] {
			if k, ok := outputAt(r, o); ok && got != want(r, k) {
				return fmt.Sprintf("rank %d element %d: got %d, want %d", r, o, got, want(r, k)), nil
			}
		}
	}
	return "", nil
}

// simulateTiles is Simulate's check of s by tiles of tile offsets; a tile
// of s.Len is the whole buffers, as Simulate runs a schedule that does not
// keep its offsets.
func simulateTiles(s *Schedule, seed uint64, tile int) (string, error) {
	staged, err := s.hazards()
	if err != nil {
		return "", err
	}
	return newSim(s, staged, seed).run(tile), nil
}

// tilesFor returns the tile lengths to simulate s by in tests: a few small
// ones if s keeps its offsets, and always the whole buffers.
func tilesFor(s *Schedule, small ...int) []int {
	if !s.keepsOffsets() {
		return []int{s.Len}
	}
	return append(small, s.Len)
}

// breakings are ways to spoil a schedule, each keeping its offsets where
// it kept them: the last step dropped, a transfer one element short, a
// copy made a reduction (or the reverse), a transfer from the wrong rank.
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

// TestSimulateIsNaive holds the simulator to naive, to the mismatch message
// and the error, for every algorithm at P up to 24, sizes that do and do
// not divide, right schedules and the spoiled ones of breakings; those that
// keep their offsets by tiles of 16 and 48 offsets (and of 1 for 13
// elements) and in one tile. The
// ring, the trees, the ring ReduceScatter and AllGather, the pipelined
// broadcast and halving-doubling must keep their offsets, so that the
// tiles are compared on them. -short stops at P = 12 (three nodes of 4).
func TestSimulateIsNaive(t *testing.T) {
	const eb = DefaultElemBytes
	tiled := map[string]int{}
	maxP := 24
	if testing.Short() {
		maxP = 12
	}
	// One parallel subtest a P; the sweep ends before tiled is read.
	var mu sync.Mutex
	t.Run("sweep", func(t *testing.T) {
		for p := 1; p <= maxP; p++ {
			t.Run(fmt.Sprintf("P=%d", p), func(t *testing.T) {
				t.Parallel()
				even := evenElems(p)
				for _, n := range []int{even, 2*even + 7, 13} {
					for _, a := range scheduled(p) {
						for bi := -1; bi < len(breakings); bi++ {
							s, err := NewElem(a, p, int64(n*eb), eb)
							if err != nil {
								t.Fatalf("%s P=%d n=%d: %v", describe(a), p, n, err)
							}
							name := fmt.Sprintf("%s/P=%d/n=%d", describe(a), p, n)
							if bi >= 0 {
								if !breakings[bi].do(s) {
									continue
								}
								name += "/" + breakings[bi].name
							}
							if s.keepsOffsets() {
								mu.Lock()
								tiled[a.Collective().String()+"/"+a.Name()]++
								mu.Unlock()
							}
							seed := uint64(p*131 + n)
							want, wantErr := naive(s, seed)
							if bi < 0 && (wantErr != nil || want != "") {
								t.Fatalf("%s: the naive simulation fails: %v %s", name, wantErr, want)
							}
							small := []int{16, 48}
							if n == 13 {
								small = append(small, 1)
							}
							for _, tile := range tilesFor(s, small...) {
								got, err := simulateTiles(s, seed, tile)
								if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
									t.Errorf("%s, tiles of %d: %q, %v; naive: %q, %v", name, tile, got, err, want, wantErr)
								}
							}
						}
					}
				}
			})
		}
	})
	for _, must := range []string{"allreduce/ring", "allreduce/tree", "reducescatter/ring", "allgather/ring", "broadcast/pipelined", "allreduce/halving-doubling"} {
		if tiled[must] == 0 {
			t.Errorf("%s: never kept its offsets (tiled: %v)", must, tiled)
		}
	}
}

// TestSimulateDetects: spoiled schedules fail, by tiles and in whole
// buffers (the comparison above would pass if both judged everything
// right).
func TestSimulateDetects(t *testing.T) {
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.Tree{PerNode: 4, Chunks: 2}, commmodel.RingAllGather{},
		commmodel.PipelinedBroadcast{Chunks: 4}, commmodel.OneShot{}, commmodel.Direct{}, commmodel.Bruck{}, commmodel.Shift{}} {
		for _, b := range breakings {
			s, err := New(a, 8, 4*1024)
			if err != nil {
				t.Fatal(err)
			}
			if !b.do(s) {
				t.Fatalf("%s: %s: nothing to spoil", describe(a), b.name)
			}
			for _, tile := range tilesFor(s, 32) {
				mis, err := simulateTiles(s, 9, tile)
				if err == nil && mis == "" {
					t.Errorf("%s, %s, tiles of %d: judged right", describe(a), b.name, tile)
				}
			}
		}
	}
}

// TestKeepsOffsetsLayout: every schedule that Footprint counts as keeping
// its offsets from its layout does (so that Footprint never counts tiles
// for a simulation that holds whole buffers).
func TestKeepsOffsetsLayout(t *testing.T) {
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
				if lay.keepsOffsets(a.Collective()) && !s.keepsOffsets() {
					t.Errorf("%s P=%d n=%d: the layout keeps offsets, the schedule does not", describe(a), p, n)
				}
			}
		}
	}
}

// fuzzSchedule builds a small schedule from b: the collective (b[0] mod 6,
// the root b[0]/6 mod P), P = 1 + b[1] mod 8, n = 1 + b[2] elements (an
// AllToAll's output P slots after them, a SendRecv's n), then a transfer every five bytes
// (source, destination, source offset, length mod what is left, and the
// last: Reduce if odd, and half of it added to the destination offset),
// and a new step wherever the first of the five is 255; nil if b is too
// short.
func fuzzSchedule(b []byte) *Schedule {
	if len(b) < 3 {
		return nil
	}
	colls := []commmodel.Collective{commmodel.AllReduce, commmodel.ReduceScatter, commmodel.AllGather, commmodel.Broadcast, commmodel.AllToAll, commmodel.SendRecv}
	p, n := 1+int(b[1])%8, 1+int(b[2])
	s := &Schedule{Algorithm: "fuzz", Collective: colls[int(b[0])%len(colls)], P: p, Size: int64(n * DefaultElemBytes),
		ElemBytes: DefaultElemBytes, Len: n, Root: int(b[0]) / len(colls) % p}
	if rankOutputs(s.Collective) { // out of place
		_, out := s.regions()
		s.Len, s.OutOff = n+out, n
	}
	var step []Transfer
	for rest := b[3:]; len(rest) >= 5; rest = rest[5:] {
		if rest[0] == 255 {
			s.Steps, step = append(s.Steps, step), nil
			continue
		}
		src := int(rest[2]) % s.Len
		length := int(rest[3]) % (s.Len - src + 1)
		dst := (src + int(rest[4]/2)) % (s.Len - length + 1)
		step = append(step, Transfer{Src: int(rest[0]) % p, Dst: int(rest[1]) % p, SrcOff: src, DstOff: dst,
			Len: length, Op: Op(rest[4] % 2)})
	}
	s.Steps = append(s.Steps, step)
	return s
}

// FuzzSimulate holds the simulator to naive on fuzzSchedule's schedules:
// the same Check message, or the same error for a schedule that hazards
// refuses, by tiles of 1 and 16 offsets where the schedule keeps its
// offsets and in whole buffers. Random transfers reach what the
// algorithms' schedules do not: reductions into one range from several
// ranks, copies that overlap, sources written in their own step. The
// corpus in testdata/fuzz/FuzzSimulate holds one of each outcome
// (TestFuzzSimulateCorpus).
func FuzzSimulate(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		s := fuzzSchedule(b)
		if s == nil {
			return
		}
		seed := uint64(len(b))
		want, wantErr := naive(s, seed)
		for _, tile := range tilesFor(s, 1, 16) {
			got, err := simulateTiles(s, seed, tile)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
				t.Fatalf("tiles of %d: %q, %v; naive: %q, %v", tile, got, err, want, wantErr)
			}
		}
	})
}

// TestFuzzSimulateCorpus: the corpus's schedules do what their names say,
// so that FuzzSimulate's seeds cover a right result, a refusal and a wrong
// one: an AllReduce of 2 ranks by a reduction and a copy back, the same in
// one step (each rank's source written in that step: a snapshot), two
// copies into one range of a step (refused), a ReduceScatter of 3 ranks
// that leaves one part unreduced, an AllToAll of 2 ranks of 2 elements
// whose blocks move to other offsets, and a SendRecv of 2 ranks of 2
// elements, each rank's input copied to the other's output at offset 2.
func TestFuzzSimulateCorpus(t *testing.T) {
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
		// Len 4, output at 2: rank i's element j goes to rank j's offset 2+i.
		{"alltoall_moved", []byte{4, 1, 1, 0, 0, 0, 1, 4, 0, 1, 1, 1, 2, 1, 0, 0, 1, 6, 1, 1, 1, 1, 4}, true, false},
		// Len 4, output at 2: (src 0, len 2, dst (0 + 4/2) mod 3) from each rank to the other.
		{"sendrecv_shift", []byte{5, 1, 1, 0, 1, 0, 2, 4, 1, 0, 0, 2, 4}, true, false},
	} {
		raw, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzSimulate", c.name))
		if err != nil {
			t.Fatal(err)
		}
		lit, ok := strings.CutPrefix(string(raw), "go test fuzz v1\n[]byte(")
		lit, ok2 := strings.CutSuffix(lit, ")\n")
		if b, err := strconv.Unquote(lit); !ok || !ok2 || err != nil || b != string(c.b) {
			t.Errorf("%s: the corpus file holds %q, want the bytes %v", c.name, raw, c.b)
		}
		mis, err := naive(fuzzSchedule(c.b), uint64(len(c.b)))
		if (err != nil) != c.fails || (err == nil && (mis == "") != c.right) {
			t.Errorf("%s: error %v, mismatch %q; want right %v, refused %v", c.name, err, mis, c.right, c.fails)
		}
	}
}

// FuzzAlgorithms holds the simulator to naive on the algorithms'
// schedules: algorithm index mod the algorithms scheduled for P = 1 + p
// mod 24 ranks, n = size mod 400 elements, spoiled by breakings[spoilt] when
// it is in range, by tiles of 1 + tile mod 64 offsets where the schedule
// keeps its offsets and in whole buffers. The corpus in
// testdata/fuzz/FuzzAlgorithms holds a right ring, a tree with a transfer
// short and Bruck's AllToAll with a wrong source.
func FuzzAlgorithms(f *testing.F) {
	f.Fuzz(func(t *testing.T, algo, p uint8, size uint16, spoilt, tile uint8) {
		np := 1 + int(p)%24
		algs := scheduled(np)
		a := algs[int(algo)%len(algs)]
		n := int(size) % 400
		s, err := New(a, np, int64(n*DefaultElemBytes))
		if err != nil {
			t.Fatal(err)
		}
		if int(spoilt) < len(breakings) {
			breakings[spoilt].do(s)
		}
		want, wantErr := naive(s, uint64(size))
		for _, tl := range tilesFor(s, 1+int(tile)%64) {
			got, err := simulateTiles(s, uint64(size), tl)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
				t.Fatalf("%s P=%d n=%d, tiles of %d: %q, %v; naive: %q, %v", describe(a), np, n, tl, got, err, want, wantErr)
			}
		}
	})
}
