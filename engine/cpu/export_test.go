package cpu

import (
	"reflect"
	"strings"
	"sync/atomic"
)

// SSSPHubArcs exports ssspHubArcs to the tests: a graph must have vertices of that many arcs
// for delta-stepping's hub split to run.
const SSSPHubArcs = ssspHubArcs

// SetHotTeams makes every run's team hot (on) or polite (off) whatever the machine, for tests
// of both policies on a small machine, and returns the function that restores the default.
func SetHotTeams(on bool) (restore func()) {
	old := hotTeam
	hotTeam = func(int) bool { return on }
	return func() { hotTeam = old }
}

// BucketOf is nd / delta by delta-stepping's bucketDiv.
func BucketOf(delta, nd int64) int64 { return newBucketDiv(delta).of(nd) }

// HighLow exports highLow (Afforest's branch-free higher and lower label) to the tests.
func HighLow(p1, p2 uint32) (high, low uint32) { return highLow(p1, p2) }

// SetJunkLabels makes CC allocate its labels filled with junk (as reused memory may hold,
// since they are not cleared), and returns the function that restores the allocation.
// Afforest's kept labels are passed by.
func SetJunkLabels() (restore func()) {
	old, oldAff := allocLabels, afforestLabels
	allocLabels = func(n int) []uint32 {
		s := make([]uint32, n)
		for i := range s {
			s[i] = ^uint32(i)
		}
		return s
	}
	afforestLabels = allocLabels
	return func() { allocLabels, afforestLabels = old, oldAff }
}

// SetGSChunk sets the vertices of a Gauss-Seidel PageRank piece and returns a function that
// restores it.
func SetGSChunk(n int) (restore func()) {
	old := gsChunk
	gsChunk = n
	return func() { gsChunk = old }
}

// SetGSFourSums sets whether the lean Gauss-Seidel sweep sums many arcs in four sums (on Intel
// processors by default), so that the tests run both ways on any machine; it returns the
// function that restores the default.
func SetGSFourSums(on bool) (restore func()) {
	old := gsFourSums
	gsFourSums = on
	return func() { gsFourSums = old }
}

// SetRelaxAsm sets whether delta-stepping relaxes in assembly where it can (amd64, no race
// detector), so that the tests run both the assembly and the Go loops; it returns the
// function that restores the default.
func SetRelaxAsm(on bool) (restore func()) {
	old := relaxAsm
	relaxAsm = on && haveRelaxAsm
	return func() { relaxAsm = old }
}

// RelaxKernelOffsets returns the offset of each field of relaxKernel by its name in upper
// case, as the assembly names them (K_OFF .. K_DU in sssp_kernel_amd64.s).
func RelaxKernelOffsets() map[string]uintptr {
	t := reflect.TypeFor[relaxKernel]()
	m := map[string]uintptr{}
	for i := range t.NumField() {
		m[strings.ToUpper(t.Field(i).Name)] = t.Field(i).Offset
	}
	return m
}

// SetGSAsm sets whether the lean Gauss-Seidel sweep runs its assembly loop (where there is
// one) or the Go loop, and returns the function that restores the default.
func SetGSAsm(on bool) (restore func()) {
	old := gsAsm
	gsAsm = on
	return func() { gsAsm = old }
}

// RelaxAsmMost exports relaxAsmMost, the most popped vertices the assembly relaxes a call.
const RelaxAsmMost = relaxAsmMost

// GSPieces returns the pieces gsClaim hands out, one after another, over [lo, end).
func GSPieces(lo, end, c, parts int64) [][2]int64 {
	var at atomic.Int64
	at.Store(lo)
	var ps [][2]int64
	for {
		a, b, ok := gsClaim(&at, end, c, parts)
		if !ok {
			return ps
		}
		ps = append(ps, [2]int64{a, b})
	}
}

// DropKeptQueues empties the frontier queues kept between runs (segQueues), so that the next
// run starts from new ones whatever the tests before it ran.
func DropKeptQueues() {
	for segQueues.get() != nil {
	}
}
