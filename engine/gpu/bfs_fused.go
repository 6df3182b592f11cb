//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
)

// Layout of the fused direction-optimizing BFS's "doio" buffer, in u64 words: the state row
// (kernels/bfs.cu Do*), the per-level queue lengths (fuseChunk+2 u32), then one counter row
// per level.
const (
	doDir, doToCheck, doAwake, doScout, doDone, doStart = 4, 5, 6, 7, 11, 12

	doLensWords = (fuseChunk + 2 + 1) / 2
	doRows      = nCounters + doLensWords // first word of the level rows
	doWords     = doRows + fuseChunk*nCounters
	doHead      = doRows + 32*nCounters // read back at once: 32 levels cover every low-diameter graph
)

// bfsFusedDO runs direction-optimizing BFS in cooperative launches of bfs_do_<lb>
// (kernels/bfs.cu bfs_do_loop): the device takes Beamer's push/pull decision before every level
// from the counters of the one before, so a level costs a grid barrier instead of a launch, a
// counter read-back and a host decision. Everything the kernel starts from travels in the
// launch's arguments (no host-to-device copy precedes it); the host reads back the state row, lengths and level counters in one copy (two past
// 32 levels), and replays Beamer's rule on the counters to trace each switch with the
// quantities compared. Overflow (update=rw duplicates) and runs longer than fuseChunk levels
// relaunch with the state the kernel left in the state row.
func (r *run) bfsFusedDO(src uint32) error {
	s := r.s
	n := int64(r.n)
	name := "bfs_do_" + lbSuffix[s.LB]
	fn, grid, err := r.coopGrid(name, 0)
	if err != nil {
		return err
	}
	in, err := r.inCSR()
	if err != nil {
		return err
	}
	t0 := time.Now()
	// the kernel writes every depth before reading any
	val, err := r.scratch("val", n*4)
	if err != nil {
		return err
	}
	valIn := val
	if s.Sync == engine.SyncDB {
		if valIn, err = r.scratch("valin", n*4); err != nil {
			return err
		}
	}
	cur, next := newFrontiers(kQueue)
	for _, f := range []*frontier{cur, next} {
		if r.qcap(f.name) < n+1024 {
			if _, err := r.scratch(f.name, (n+1024)*4); err != nil {
				return err
			}
		}
	}
	bits, err := r.scratch("dobits", 3*((n+31)/32)*4)
	if err != nil {
		return err
	}
	io, err := r.scratch("doio", doWords*8)
	if err != nil {
		return err
	}
	// the kernel clears the spill boolmap on its first launch
	sp, err := r.scratch("spill", n)
	if err != nil {
		return err
	}
	var stamp buffer
	if s.Dedup != engine.DedupNone {
		if stamp, err = r.buf("stamp", n*4, false); err != nil {
			return err
		}
	}
	hio := make([]uint64, doHead) // grown to doWords past 32 levels (Go zeroes what it allocates)
	// Beamer's state: the kernel starts from it and leaves it in the state row
	st := [nCounters]uint64{doToCheck: uint64(r.m), doScout: uint64(r.g.Degree(src))}
	init := int64(1)
	cur.count = 1
	dir := engine.Push
	lens := func(k int) int64 { return int64(uint32(hio[nCounters+k/2] >> (32 * (k % 2)))) }
	row := func(k, c int) uint64 { return hio[doRows+k*nCounters+c] }
	for {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		qa, _ := r.storage(cur)
		qb, _ := r.storage(next)
		a := r.args(&r.dg.out)
		a.val, a.valIn, a.update = val.addr(), valIn.addr(), updateCode(s.Update)
		a.inKind, a.inQ, a.outQ, a.outKind = kQueue, qa.addr(), qb.addr(), kQueue
		a.outCap = min(r.qcap(cur.name), r.qcap(next.name))
		a.spill, a.stamp, a.tag = sp.addr(), stamp.addr(), int64(r.eng.nextTags(fuseChunk+2))
		r.fusedKnobs(&a)
		a.iters, a.iter, a.bound = fuseChunk, int64(r.iter), 1<<62
		a.lens, a.trace = io.addr()+nCounters*8, io.addr()+doRows*8
		a.inOff, a.inNbr, a.doBitmaps, a.alpha, a.beta = in.off.addr(), in.nbr.addr(), bits.addr(), s.Alpha, s.Beta
		a.doDir, a.doToCheck, a.doAwake, a.doScout = int64(st[doDir]), int64(st[doToCheck]), int64(st[doAwake]), int64(st[doScout])
		a.doCount, a.doInit, a.doSrc = cur.count, init, int64(src)
		tl := time.Now()
		if err := launch(fn, grid, block, unsafe.Pointer(&a), true); err != nil {
			return fmt.Errorf("%w (kernel %s, grid %d x %d)", err, name, grid, block)
		}
		tr := time.Now()
		if err := check("cuMemcpyDtoH (fused levels)", cu.MemcpyDtoH(unsafe.Pointer(&hio[0]), io.ptr, doHead*8)); err != nil {
			return err
		}
		done := int(hio[doDone])
		if done > 32 {
			if len(hio) < doWords {
				hio = append(hio, make([]uint64, doWords-len(hio))...)
			}
			rest := (done - 32) * nCounters * 8
			if err := check("cuMemcpyDtoH (fused levels)", cu.MemcpyDtoH(unsafe.Pointer(&hio[doHead]), io.ptr+cu.DevicePtr(doHead*8), int64(rest))); err != nil {
				return err
			}
		}
		r.nextEvent, r.pending = 0, r.pending[:0]
		// 1. One record per level, after the switch that preceded it.
		scout, toCheck := st[doScout], st[doToCheck]
		prev := hio[doStart]
		for k := 0; k < done; k++ {
			cnt := lens(k)
			d := engine.Push
			if row(k, cDir) == 1 {
				d = engine.Pull
			}
			if d != dir {
				if d == engine.Pull {
					r.switchRec("direction", "push", "pull", "frontier edges > unexplored edges / alpha",
						engine.Quantity{Name: "frontier edges", Value: float64(scout)}, ">", engine.Quantity{Name: "unexplored edges / alpha", Value: float64(int64(toCheck)) / s.Alpha})
				} else {
					r.switchRec("direction", "pull", "push", "frontier vertices < V / beta and shrinking",
						engine.Quantity{Name: "frontier vertices", Value: float64(cnt)}, "<", engine.Quantity{Name: "V / beta", Value: float64(n) / s.Beta})
				}
				dir = d
			}
			t := row(k, cTime)
			lt := time.Duration(t - prev)
			rec := engine.Record{Kind: engine.IterationRecord, Iter: r.iter, Direction: dir, Mode: engine.Data,
				InVertices: cnt, InEdges: int64(scout), OutVertices: lens(k + 1), EdgesScanned: int64(row(k, cEdges)),
				Duplicates: int64(row(k, cCulled)), Time: lt,
				// every level is a phase of the one launch; a level under the timer's tick shows as 1 ns
				Kernels: []engine.Kernel{{Name: name, Grid: grid, Block: block, Time: max(lt, 1)}}}
			if k == 0 {
				rec.Note = fmt.Sprintf("fused direction-optimizing: one cooperative launch of %d levels, %.0f us on the device clock; host %.0f us to the launch, %.0f us in it, %.0f us to the read-back",
					done, micros(time.Duration(row(done-1, cTime)-hio[doStart])), micros(tl.Sub(t0)), micros(tr.Sub(tl)), micros(time.Since(tr)))
			}
			switch {
			case dir == engine.Push && cnt <= 64 && scout >= 1<<14:
				rec.Note = joinNote(rec.Note, "few rows with many edges: each row over the whole grid")
			case dir == engine.Push && (s.LB == engine.LBTWC || s.LB == engine.LBETWC || s.LB == engine.LBNP) && cnt <= 4096 && int64(scout) >= 8*cnt:
				rec.Note = joinNote(rec.Note, lbSuffix[s.LB]+": small frontier of rich rows, a warp per row")
			case dir == engine.Push && s.LB == engine.LBNP && int64(scout) < 2*cnt:
				rec.Note = joinNote(rec.Note, "np: frontier of short rows (under 2 edges on average) run a thread per row")
			case dir == engine.Pull && (s.LB == engine.LBNP || s.LB == engine.LBETWC):
				rec.Note = joinNote(rec.Note, lbSuffix[s.LB]+": bottom-up level run a thread per vertex (rows stop at their first parent)")
			}
			prev = t
			scout = row(k, cScout)
			toCheck -= scout
			r.iter++
			r.res.Trace.Records = append(r.res.Trace.Records, rec)
			r.req.Emit(rec)
		}
		// 2. The kernel's state for a relaunch, and where the next input is.
		copy(st[doDir:doScout+1], hio[doDir:doScout+1])
		init = 0
		over := done > 0 && row(done-1, cOverflow) != 0
		if done%2 == 1 {
			cur, next = next, cur
		}
		cur.count, cur.edges = lens(done), int64(st[doScout])
		if over {
			// the queue holding level `done`'s input overflowed: grow it and fold the spill in
			if err := r.foldFused(cur, next, nil, nil); err != nil {
				return err
			}
			r.nextEvent, r.pending = 0, r.pending[:0]
			continue
		}
		if cur.count == 0 {
			break
		}
	}
	r.collect = func() error { return r.collectDepth(val) }
	return nil
}

func micros(d time.Duration) float64 { return float64(d) / 1e3 }
