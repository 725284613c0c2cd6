package predict

// The interval's spreads beyond the tables' nodes, for the report that
// measures them (TestPairedBeyondNodes).
const SlowerSpread, FasterSpread = slowerSpread, fasterSpread
