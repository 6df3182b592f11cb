//go:build !linux

package cpu

import "runtime"

// osYield gives the processor to another goroutine (elsewhere than Linux there is no cheap
// way to yield the thread; see yield_linux.go).
func osYield() { runtime.Gosched() }
