//go:build !amd64

package cpu

// haveRelaxAsm is false where delta-stepping has no assembly: relaxItemsFast's Go loop runs.
const haveRelaxAsm = false

var relaxAsm = false

func relaxItemsAsm(items []uint32, k *relaxKernel) int    { panic("cpu: no relaxItemsAsm here") }
func relaxArcsAsm(lo, hi, du int64, k *relaxKernel) int64 { panic("cpu: no relaxArcsAsm here") }
