//go:build race

package main

// raceDetector reports that the tests run under the race detector, whose
// sync.Pool drops what it is given (regexp's matchers among them), so that
// allocations counted there are not the program's.
const raceDetector = true
