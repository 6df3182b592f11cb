package cpu

// haveRelaxAsm is whether delta-stepping can relax in assembly (relaxItemsKernel): the race
// detector's builds keep the Go loops, as it cannot see the assembly's loads and stores.
const haveRelaxAsm = !raceBuild

// relaxAsm is whether it does (the tests run both ways).
var relaxAsm = haveRelaxAsm

// relaxItemsAsm relaxes the popped vertices items for relaxItemsKernel and returns the index
// of the one it stopped at (k.stop), or len(items).
//
//go:noescape
func relaxItemsAsm(items []uint32, k *relaxKernel) int

// relaxArcsAsm relaxes arcs [lo, hi) from distance du and returns hi, or the arc whose
// improved vertex (k.v, into bucket k.b) Go must append.
//
//go:noescape
func relaxArcsAsm(lo, hi, du int64, k *relaxKernel) int64
