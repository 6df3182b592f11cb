//go:build cuda

package gpu

import "unsafe"

// The kernels' argument block and the enums it carries, mirrored from kernels/common.cuh.

// Mirrors of common.cuh's enums.
const (
	kQueue, kBitmap, kBoolmap, kAll   = 0, 1, 2, 3
	dNone, dAtomic, dCull, dCullStamp = 0, 1, 2, 3
	aggAtomic, aggWarp, aggBlock      = 0, 1, 2
	uRMW, uRW                         = 0, 1

	cEdges, cPushes, cScout, cOverflow, cCulled, cFar, cCount, cCountEdges, cChanged, cMinFar = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	cTime, cBound, cFarSel, cStop, cErr, cDir, nCounters                                      = 10, 11, 12, 13, 14, 15, 16
	// PageRank sweeps: the sum of the stored ranks and of the dangling ones (doubles), beside
	// the L1 change in cErr (kernels/pr.cu PR_SUM, PR_DANG)
	cRankSum, cRankDang = 8, 9

	block    = 256
	maxGrid  = 1 << 22
	infDist  = int32(0x7fffffff)
	ctlWords = 64 // u64 words: counters [0,16), queue lengths as u32 from word 32
)

// Queue length slots (u32 index into ctl).
const (
	lenQ0, lenQ1, lenFar0, lenFar1, lenTmp = 64, 65, 66, 67, 68
)

// kargs mirrors struct Args in kernels/common.cuh field for field (all 8 bytes).
type kargs struct {
	off, nbr, wt, row   uint64
	n, m                int64
	outOff              uint64
	val, valIn          uint64
	rank, rankNext      uint64
	contrib, resid      uint64
	inKind              int64
	inQ, inLen          uint64
	inBits, inBools     uint64
	inScan              uint64
	memKind             int64
	memBits, memBools   uint64
	outKind             int64
	outQ, outLen        uint64
	outCap              int64
	outBits, outBools   uint64
	spill               uint64
	farQ, farLen        uint64
	farCap              int64
	dedup, agg, update  int64
	stamp, cull         uint64
	tag, iter, bound    int64
	damping, base, eps  float64
	counters, err       uint64
	iters               int64
	lens, trace         uint64
	far2, farLen2       uint64
	delta               int64
	rowsPerBlock        int64
	rankOut, contribOut uint64
	twcWarp             int64
	inOff, inNbr        uint64
	alpha, beta         float64
	doBitmaps           uint64
	doDir, doToCheck    int64
	doAwake, doScout    int64
	doCount, doInit     int64
	doSrc               int64
	prScale, prDang     float64
	prFixed             int64
	prInitOut           float64
	prInitDang          float64
	prCmax              uint64
	small               int64
}

// kargsSize is sizeof(Args) in common.cuh, which static_asserts the same number.
const kargsSize = 592

var _ [kargsSize - unsafe.Sizeof(kargs{})]byte
var _ [unsafe.Sizeof(kargs{}) - kargsSize]byte

// args returns an argument block for CSR c with the counters and lengths wired in.
func (r *run) args(c *csrDev) kargs {
	return kargs{
		off: c.off.addr(), nbr: c.nbr.addr(), wt: c.wt.addr(), row: c.row.addr(), n: int64(c.n), m: c.m,
		outOff: r.dg.out.off.addr(), counters: r.ctl.addr(), update: uRMW,
	}
}
