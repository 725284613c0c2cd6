package schedule

// Schedules of AllToAll, and of SendRecv, which is laid out as an AllToAll
// of one block.
//
// Layout (elements of each rank's buffer): the input is n elements at 0, the
// block for rank j being part j of them; the output is P slots from lay.out,
// the block from rank i landing at out + i·c_j on rank j, where c_j is the
// length of part j (every block rank j receives has that length). Bruck and
// the hierarchy add a working region of P slots of ⌈n/P⌉ elements at lay.work.

// block returns the transfer of rank i's block for rank j straight from
// i's input to j's output: part j of i's n elements, landing in slot i of
// j's output (a local copy when i = j).
func block(lay layout, p, n, i, j int) Transfer {
	lo, hi := partBounds(n, p, j)
	return Transfer{Src: i, Dst: j, SrcOff: lo, DstOff: lay.out + i*(hi-lo), Len: hi - lo, Op: Copy}
}

// deliver adds the transfer of i's block for j to step at.
func deliver(b *builder, at int, lay layout, p, n, i, j int) {
	b.put(at, block(lay, p, n, i, j))
}

// directAllToAll sends all P-1 blocks in one step (and copies the own block locally).
func directAllToAll(b *builder, p, n int, lay layout) {
	for i := range p {
		for j := range p {
			deliver(b, 0, lay, p, n, i, j)
		}
	}
}

// pairwiseAllToAll sends one block per round: in round t = 1..P-1 rank i
// sends to i XOR t when P is a power of two, else to i+t (receiving from i-t).
// The own block is copied locally in the first step.
func pairwiseAllToAll(b *builder, p, n int, lay layout) {
	for i := range p {
		deliver(b, 0, lay, p, n, i, i)
		for t := 1; t < p; t++ {
			j := (i + t) % p
			if isPow2(p) {
				j = i ^ t
			}
			deliver(b, t-1, lay, p, n, i, j)
		}
	}
}

// bruckAllToAll is Bruck's algorithm. A local rotation puts rank r's block
// for r+k in slot k of the working region; in step s (2^s < P) every rank
// sends each slot whose index has bit s set to rank r+2^s, into the same slot;
// after the last step slot k of rank d holds the block from d-k, and a final
// local rotation moves it to the output. Before step s, slot k of rank r holds
// the block that started at r - (k mod 2^s), bound for that rank plus k, which
// gives its length.
func bruckAllToAll(b *builder, p, n int, lay layout) {
	slot := func(k int) int { return lay.work + k*lay.slot }
	length := func(j int) int { lo, hi := partBounds(n, p, mod(j, p)); return hi - lo }
	for r := range p {
		for k := range p {
			lo, _ := partBounds(n, p, (r+k)%p)
			b.put(0, Transfer{Src: r, Dst: r, SrcOff: lo, DstOff: slot(k), Len: length(r + k), Op: Copy})
		}
	}
	at := 1
	for s := 0; 1<<s < p; s++ {
		d := 1 << s
		for r := range p {
			for k := range p {
				if k&d != 0 {
					l := length(r - k%d + k)
					b.put(at, Transfer{Src: r, Dst: (r + d) % p, SrcOff: slot(k), DstOff: slot(k), Len: l, Op: Copy})
				}
			}
		}
		at++
	}
	for d := range p {
		c := length(d)
		for k := range p {
			b.put(at, Transfer{Src: d, Dst: d, SrcOff: slot(k), DstOff: lay.out + mod(d-k, p)*c, Len: c, Op: Copy})
		}
	}
}

// hierarchicalAllToAll is the rail-aligned two-level AllToAll over N nodes of
// perNode GPUs (rank = node·perNode + rail). Step 0, over NVLink: GPU g of
// node n hands local GPU r its N blocks bound for rail r; the one for (n, r)
// goes straight to its output, the others into r's working region, where the
// p blocks for GPU (m, r) from the p GPUs of node n lie side by side. Step 1,
// over the network: GPU (n, r) sends each remote GPU (m, r) those p blocks as
// one message, straight into its output.
func hierarchicalAllToAll(b *builder, perNode, p, n int, lay layout) {
	nodes := p / perNode
	for node := range nodes {
		for g := range perNode {
			src := node*perNode + g
			for r := range perNode {
				via := node*perNode + r
				for m := range nodes {
					dst := m*perNode + r
					if m == node {
						deliver(b, 0, lay, p, n, src, dst)
						continue
					}
					t := block(lay, p, n, src, dst)
					t.Dst, t.DstOff = via, lay.work+m*perNode*lay.slot+g*t.Len
					b.put(0, t)
				}
			}
		}
	}
	for node := range nodes {
		for r := range perNode {
			via := node*perNode + r
			for m := range nodes {
				if m == node {
					continue
				}
				dst := m*perNode + r
				t := block(lay, p, n, node*perNode, dst)
				t.Src, t.SrcOff, t.Len = via, lay.work+m*perNode*lay.slot, perNode*t.Len
				b.put(1, t)
			}
		}
	}
}

// shiftSendRecv is SendRecv's Shift: Direct's one step with a single block
// per rank, the whole input, delivered to the next rank (mod P). A
// SendRecv is laid out as an AllToAll of one rank (layoutOf), whose one
// block is the whole input and lands at the start of the output; at P = 1
// it is a local copy.
func shiftSendRecv(b *builder, p, n int, lay layout) {
	for i := range p {
		t := block(lay, 1, n, 0, 0)
		t.Src, t.Dst = i, (i+1)%p
		b.put(0, t)
	}
}
