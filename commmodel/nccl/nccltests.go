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

// BusBW is the bus bandwidth nccl-tests would print, in B/s, if a call of
// (f, a, p) moving nBytes took NCCL's predicted time
// (commmodel.Collective.BusBW; Reduce's bus bandwidth is its algorithm
// bandwidth, ReduceGetBw in nccl-tests src/reduce.cu); false where (f, a, p)
// is not available. For Ring it tends to the model's bus bandwidth nCh·bw
// after refinements as nBytes grows.
func (m *Model) BusBW(f Func, a Algo, p Protocol, nBytes float64) (float64, bool) {
	t, ok := m.Time(f, a, p, nBytes)
	if !ok {
		return 0, false
	}
	c, ok := f.Collective()
	if !ok {
		return nBytes / t, true
	}
	return c.BusBW(m.nRanks, nBytes, t), true
}
