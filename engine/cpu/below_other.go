//go:build !amd64

package cpu

// belowMask returns the mask of the depths in dd (at most 64) below skip: bit k is dd[k] <
// skip (see below_amd64.go).
func belowMask(dd []int32, skip int32) uint64 { return belowMaskGo(dd, skip) }
