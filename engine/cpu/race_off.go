//go:build !race

package cpu

// raceBuild reports whether the race detector is on. Where a loop tolerates racy word-sized
// reads and writes by design (Gauss-Seidel PageRank publishing contributions that other
// workers may read old or new), a normal build uses plain stores, and a -race build atomic
// ones, so that the detector checks everything else. The Go memory model guarantees that a
// racy read of a word-sized value observes some value written to it.
const raceBuild = false
