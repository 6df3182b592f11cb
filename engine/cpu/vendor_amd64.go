package cpu

// amdCPU reports whether the processor is AMD's (CPUID's vendor string "AuthenticAMD"). Some
// loops were measured to run best one way on the 2-core AMD machine and another on the GPU
// machine's 16-core Intel host; they choose by it (see afforest).
func amdCPU() bool {
	_, b, c, d := cpuid(0)
	return b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163 // "Auth" "enti" "cAMD"
}

// cpuid runs the CPUID instruction for leaf (subleaf 0).
func cpuid(leaf uint32) (a, b, c, d uint32)
