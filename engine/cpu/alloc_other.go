//go:build !amd64

package cpu

// uninitUint32s is make([]uint32, n) where alloc_amd64.go's allocation is not used.
func uninitUint32s(n int) []uint32 { return make([]uint32, n) }
