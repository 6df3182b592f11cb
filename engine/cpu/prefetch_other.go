//go:build !amd64

package cpu

import "unsafe"

// prefetch is a no-op where no assembly gives a prefetch instruction (see prefetch_amd64.go).
func prefetch(p unsafe.Pointer) {}

func prefetchVerts(items []uint32, off *int64, dist *int32)                                    {}
func prefetchArcs(items []uint32, off *int64, nb *uint32, ws *int32, dist *int32, floor int64) {}
func prefetchNbrDist(items []uint32, off *int64, nb *uint32, dist *int32, floor, most int64)   {}

// prefetch2 is a no-op where no assembly gives a prefetch instruction.
func prefetch2(p, q unsafe.Pointer) {}
