//go:build !amd64

package cpu

// cpuRelax is a no-op where no assembly gives a spin-wait hint (see pause_amd64.go).
func cpuRelax() {}
