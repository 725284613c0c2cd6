package nccl

// NBytes is NCCL's nBytes for a call of f on count elements of typeSize
// bytes over ranks ranks (ncclFuncMaxSendRecvCount, NCCL 2.30.7
// src/enqueue.cc): the whole buffer, ranks · count · typeSize, for
// AllGather (count = send count) and ReduceScatter (count = receive count),
// count · typeSize otherwise. nccl-tests prints the same number in its size
// column: the larger of the send and receive buffers (nccl-tests
// src/common.cu), which is the per-rank buffer for AllReduce, Broadcast
// and Reduce and the whole buffer for AllGather and ReduceScatter. So a
// size read from an nccl-tests table is nBytes as it stands.
func NBytes(f Func, count int64, typeSize, ranks int) float64 {
	n := float64(count) * float64(typeSize)
	if f == FuncAllGather || f == FuncReduceScatter {
		n *= float64(ranks)
	}
	return n
}

// BusFactor is nccl-tests' ratio of bus to algorithm bandwidth over ranks
// ranks (AllReduceGetBw etc., nccl-tests src/*.cu): 2(n−1)/n for AllReduce,
// (n−1)/n for AllGather and ReduceScatter, 1 for Broadcast and Reduce.
func BusFactor(f Func, ranks int) float64 {
	n := float64(ranks)
	switch f {
	case FuncAllReduce:
		return 2 * (n - 1) / n
	case FuncAllGather, FuncReduceScatter:
		return (n - 1) / n
	}
	return 1
}

// BusBW is the bus bandwidth nccl-tests prints for size bytes (nBytes) in t
// seconds: size/t · BusFactor, in B/s.
func BusBW(f Func, ranks int, size, t float64) float64 {
	return size / t * BusFactor(f, ranks)
}

// BusBW is the bus bandwidth nccl-tests would print, in B/s, if a call of
// (f, a, p) moving nBytes took NCCL's predicted time; false where (f, a, p)
// is not available. For Ring it tends to the model's bus bandwidth nCh·bw
// after refinements as nBytes grows.
func (m *Model) BusBW(f Func, a Algo, p Protocol, nBytes float64) (float64, bool) {
	t, ok := m.Time(f, a, p, nBytes)
	if !ok {
		return 0, false
	}
	return BusBW(f, m.nRanks, nBytes, t), true
}
