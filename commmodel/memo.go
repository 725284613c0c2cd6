package commmodel

import (
	"maps"
	"sync"
	"sync/atomic"
)

// A memo keeps a value per key, computed on the key's first use: the
// plans and sweeps that depend on an algorithm's shape and not on the size
// or the links. Readers take no lock: the map is never changed once
// stored, and a new key stores a copy with its value. It holds at most
// memoSize keys; past that it starts afresh.
type memo[K comparable, V any] struct {
	m  atomic.Pointer[map[K]V]
	mu sync.Mutex // serializes the copies
}

// memoSize bounds a memo.
const memoSize = 1 << 12

// get returns the value of k, computed by value if k is new. Safe for
// concurrent use; value may run more than once for one key.
func (c *memo[K, V]) get(k K, value func() V) V {
	if m := c.m.Load(); m != nil {
		if v, ok := (*m)[k]; ok {
			return v
		}
	}
	v := value()
	c.mu.Lock()
	defer c.mu.Unlock()
	m := map[K]V{}
	if old := c.m.Load(); old != nil {
		if stored, ok := (*old)[k]; ok {
			return stored
		}
		if len(*old) < memoSize {
			m = maps.Clone(*old)
		}
	}
	m[k] = v
	c.m.Store(&m)
	return v
}
