//go:build !amd64

package cpu

// amdCPU reports whether the processor is AMD's; false off amd64 (see vendor_amd64.go).
func amdCPU() bool { return false }
