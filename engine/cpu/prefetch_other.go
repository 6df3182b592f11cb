//go:build !amd64

package cpu

import "unsafe"

// prefetch is a no-op where no assembly gives a prefetch instruction (see prefetch_amd64.go).
func prefetch(p unsafe.Pointer) {}
