//go:build !amd64

package cpu

// gsAsm is false where there is no assembly for gsLean (see pr_gs_amd64.go).
var gsAsm = false

func gsLeanFast(cf []float32, off []int64, nb []uint32, lo, hi int, c0, d float32, four bool) (change, sum float64) {
	panic("cpu: gsLeanFast without assembly")
}
