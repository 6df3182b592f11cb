//go:build cuda

package gpu

import (
	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
)

// frontier is a worklist in one of the representations of the frontier knob.
type frontier struct {
	kind  int    // kQueue, kBitmap, kBoolmap, or kAll (every vertex)
	name  string // buffer name: the queue, bitmap or boolmap
	slot  int    // queue length slot
	count int64  // vertices (with duplicates, for a queue)
	edges int64  // sum of their out-degrees; -1 when unknown
}

func frontierKind(f engine.Frontier) int {
	switch f {
	case engine.Bitmap:
		return kBitmap
	case engine.Boolmap:
		return kBoolmap
	}
	return kQueue
}

// newFrontiers returns the two alternating worklists of a run.
func newFrontiers(kind int) (*frontier, *frontier) {
	return &frontier{kind: kind, name: "f0", slot: lenQ0, edges: -1}, &frontier{kind: kind, name: "f1", slot: lenQ1, edges: -1}
}

// qcap is a queue's current capacity in entries.
func (r *run) qcap(name string) int64 {
	if b, ok := r.bufs[name]; ok {
		return b.bytes / 4
	}
	return 0
}

// initialCap is a worklist's first capacity: V/5 (Nasre et al.), grown on demand.
func (r *run) initialCap() int64 {
	c := int64(r.n) / 5
	if c < 4096 {
		c = 4096
	}
	return c
}

// storage returns the device buffer behind f, allocated for its representation.
func (r *run) storage(f *frontier) (buffer, error) {
	switch f.kind {
	case kBitmap:
		return r.buf(f.name, int64((r.n+31)/32)*4, false)
	case kBoolmap:
		return r.buf(f.name, int64(r.n), false)
	}
	c := r.qcap(f.name)
	if c == 0 {
		c = r.initialCap()
	}
	return r.buf(f.name, c*4, true)
}

// setSource makes f hold only src.
func (r *run) setSource(f *frontier, src uint32) error {
	b, err := r.storage(f)
	if err != nil {
		return err
	}
	f.count, f.edges = 1, r.g.Degree(src)
	switch f.kind {
	case kBitmap:
		if err := memset8(b, 0, b.bytes); err != nil {
			return err
		}
		return r.setWord(b, int64(src/32)*4, 1<<(src&31))
	case kBoolmap:
		if err := memset8(b, 0, b.bytes); err != nil {
			return err
		}
		return memset8(buffer{ptr: b.ptr + cu.DevicePtr(src), bytes: 1}, 1, 1)
	}
	if err := r.setWord(b, 0, src); err != nil {
		return err
	}
	return r.setLen(f.slot, 1)
}

// stepSpec is one advance: which kernel, over which CSR, from which frontier into which.
type stepSpec struct {
	prefix string // kernel prefix, e.g. "bfs_push"; the lb suffix is added
	csr    *csrDev
	pull   bool
	topo   bool      // rows are every vertex (a topology-driven sweep)
	in     *frontier // push: the rows; pull: frontier membership (nil with topo)
	out    *frontier // nil: nothing is pushed
	far    *frontier // near-far pile (a queue), or nil
	a      kargs     // algorithm fields: val, valIn, iter, bound, update, ...
	// keepOut adds to the output as it stands (a second CSR of the same step); noCount skips
	// the member count of a bitmap or boolmap output (a later CSR of the step will count).
	keepOut, noCount bool
	// firstHit: a pull row stops at its first hit (bottom-up BFS), so lb=np|etwc run it a
	// thread per vertex.
	firstHit bool
	// grid: the kernel has a <prefix>_grid entry (kernels/common.cuh lb_grid), which takes a
	// queue of a few rows holding many edges in one launch, each row over the whole grid.
	grid bool
}

// richEdges is the fewest edges a step needs for the small-frontier rules to expand it
// edge-balanced: below it the scan's three kernels cost more than the balance gains (kron20
// SSSP's last steps, 21 to 1,842 rows of 191 to 15,530 edges, took 65-76 us each so, and
// 10-20 us under twc).
const richEdges = 1 << 14

// edgeTile is lb=edge's edges a block (kernels/common.cuh EDGE_TILE).
const edgeTile = 2048

var lbSuffix = map[engine.LoadBalance]string{
	engine.LBThread: "thread", engine.LBWarp: "warp", engine.LBCTA: "cta", engine.LBTWC: "twc",
	engine.LBEdge: "edge", engine.LBCOO: "coo", engine.LBNP: "np", engine.LBETWC: "etwc",
}

// step launches one advance and, for a bitmap or boolmap output, the count of its members.
// The caller reads the counters back.
func (r *run) step(sp *stepSpec) error {
	a := sp.a
	c := sp.csr
	a.off, a.nbr, a.wt, a.n, a.m = c.off.addr(), c.nbr.addr(), c.wt.addr(), int64(c.n), c.m
	a.outOff, a.counters = r.dg.out.off.addr(), r.ctl.addr()
	lb := r.s.LB
	// A frontier of a few rows holding many edges (a hub's neighbourhood) would keep a handful
	// of blocks busy under any vertex-mapped strategy: its edges are split evenly instead, by
	// the kernel's lb_grid entry where it has one (no scan), else edge-balanced. TWC, ETWC and
	// NP also adapt to the frontier's size: a small frontier (up to 4096 rows) of rows
	// averaging 8 or more edges, richEdges in all, would fill a few blocks and run
	// latency-bound, so it is expanded edge-balanced, as Gunrock's LB balances over the input
	// when it is small. A big step (run.bigStep edges or more; SSSP's lb=auto on skewed
	// degrees) is expanded edge-balanced too: a few rows of tens of thousands of edges among
	// many short ones leave twc's blocks unevenly loaded.
	hub, big := false, false
	if !sp.topo && !sp.pull && sp.in != nil && lb != engine.LBCOO && lb != engine.LBEdge && sp.in.count > 0 {
		switch {
		case sp.in.count <= 64 && sp.in.edges >= richEdges && sp.grid && sp.in.kind == kQueue:
			hub = true
			r.note = "few rows with many edges: each row over the whole grid this step"
		case sp.in.count <= 64 && sp.in.edges >= richEdges:
			lb = engine.LBEdge
			r.note = "few rows with many edges: split evenly (edge-balanced) this step"
		case r.bigStep > 0 && sp.in.edges >= r.bigStep:
			r.note = "big step expanded edge-balanced"
			lb, big = engine.LBEdge, true
		case (lb == engine.LBTWC || lb == engine.LBETWC || lb == engine.LBNP) && sp.in.count <= 4096 && sp.in.edges >= 8*sp.in.count && sp.in.edges >= richEdges:
			r.note = lbSuffix[lb] + ": small frontier of rich rows expanded edge-balanced"
			lb = engine.LBEdge
		case lb == engine.LBNP && sp.in.edges >= 0 && sp.in.edges < 2*sp.in.count:
			// rows of one or two edges: np's block scan and barriers cost more than they pack
			r.note = "np: frontier of short rows (under 2 edges on average) run a thread per row"
			lb = engine.LBThread
		}
	}
	// A bottom-up BFS row stops at its first parent, mostly after an edge or two: nested
	// scheduling (np's block scan, etwc's staged queues and barriers) gains nothing there, and
	// a thread per vertex walks and stops (on kron's first bottom-up level, np took nearly
	// three times as long as a thread per vertex).
	if sp.pull && sp.firstHit && (lb == engine.LBNP || lb == engine.LBETWC) {
		r.note = lbSuffix[lb] + ": bottom-up step run a thread per vertex (rows stop at their first parent)"
		lb = engine.LBThread
	}
	if lb == engine.LBCOO {
		if err := r.rows(c); err != nil {
			return err
		}
		a.row = c.row.addr()
	}
	rows := int64(r.n)
	edges := c.m
	/// 1. Rows and membership.
	switch {
	case sp.topo || sp.pull:
		a.inKind = kAll
		if sp.pull && !sp.topo {
			if err := r.membership(sp.in, &a); err != nil {
				return err
			}
		} else {
			a.memKind = kAll
		}
	default:
		in := sp.in
		rows, edges = in.count, in.edges
		if edges < 0 {
			edges = c.m
		}
		b, err := r.storage(in)
		if err != nil {
			return err
		}
		a.inKind = int64(in.kind)
		switch in.kind {
		case kQueue:
			a.inQ, a.inLen = b.addr(), r.lenAddr(in.slot)
		case kBitmap:
			a.inBits = b.addr()
		case kBoolmap:
			a.inBools = b.addr()
		}
		switch {
		case lb == engine.LBCOO && in.kind == kQueue:
			m, err := r.queueToMem(in, kBoolmap, "rowmem")
			if err != nil {
				return err
			}
			a.inKind, a.inBools = kBoolmap, m.addr()
		case lb == engine.LBEdge:
			if err := r.edgeScanLB(in, &a); err != nil {
				return err
			}
		}
	}
	/// 2. Output.
	if err := r.wireOut(sp.out, &a, sp.keepOut); err != nil {
		return err
	}
	// A big step (run.bigStep) marks its near output in a boolmap by plain stores (a vertex
	// improved many times is marked many times, at no cost) and util_fold_marks appends the
	// marks to the queue after it: no claim (dedup) and no atomic on the queue's tail a
	// relaxation. On kron20 SSSP's big steps, 22.0 M and 28.7 M edges, the claims and pushes
	// were most of the time: 0.64 and 0.70 ms edge-balanced, 0.43 + 0.03 and 0.45 + 0.03 with
	// the marks and their fold (docs/gpu-notes.md).
	var fold kargs
	if big && sp.out != nil && sp.out.kind == kQueue && !sp.keepOut {
		mb, err := r.buf("marks", int64(r.n), false)
		if err != nil {
			return err
		}
		fold = r.args(&r.dg.out)
		fold.inBools, fold.outQ, fold.outLen, fold.outCap, fold.spill = mb.addr(), a.outQ, a.outLen, a.outCap, a.spill
		a.outKind, a.outBools, a.dedup, a.outOff = kBoolmap, mb.addr(), dNone, 0
	}
	if sp.far != nil {
		fb, err := r.storage(sp.far)
		if err != nil {
			return err
		}
		a.farQ, a.farLen, a.farCap = fb.addr(), r.lenAddr(sp.far.slot), r.qcap(sp.far.name)
	}
	/// 3. Launch, with a grid that follows the work.
	var grid int
	switch lb {
	case engine.LBThread:
		grid = blocks(rows, block)
	case engine.LBETWC:
		// on rich frontiers 32 rows a block and a warp for the rest of every row of 8 or more
		// edges, as for twc
		a.rowsPerBlock = block
		if !sp.topo && !sp.pull && sp.in != nil && sp.in.count > 0 && sp.in.edges >= 16*sp.in.count {
			a.rowsPerBlock, a.twcWarp = 32, twcRichWarp
		}
		grid = blocks(rows, int(a.rowsPerBlock))
	case engine.LBNP:
		a.rowsPerBlock = int64(r.s.NP) // the enabled schedulers, in the low byte
		grid = blocks(rows, block)
		if !sp.topo && !sp.pull && sp.in != nil && sp.in.count > 0 && sp.in.edges >= 16*sp.in.count {
			// rich rows: twc's rule, 32 rows a block and the warp scheduler from 8 edges
			a.rowsPerBlock |= npRichRows << 8
			a.twcWarp = twcRichWarp
			grid = blocks(rows, npRichRows)
		}
	case engine.LBTWC:
		// rich rows (16 or more edges on average): 32 rows a block, so that more warps share them
		a.rowsPerBlock = block
		if !sp.topo && !sp.pull && sp.in != nil && sp.in.count > 0 && sp.in.edges >= 16*sp.in.count {
			// and a warp for every row of 8 or more edges: a thread walking 20-30 edges as a
			// chain of dependent loads and atomics is the step's critical path
			a.rowsPerBlock, a.twcWarp = 32, twcRichWarp
		}
		grid = blocks(rows, int(a.rowsPerBlock))
	case engine.LBWarp:
		grid = blocks(rows, block/32)
	case engine.LBCTA:
		grid = blocks(rows, 1)
	case engine.LBEdge:
		grid = blocks(edges, edgeTile)
	default:
		grid = blocks(c.m, block)
	}
	name := sp.prefix + "_" + lbSuffix[lb]
	if hub {
		name, grid = sp.prefix+"_grid", blocks(edges, block)
	}
	if err := r.launch(name, grid, &a); err != nil {
		return err
	}
	if fold.inBools != 0 {
		return r.launch("util_fold_marks", blocks(int64(r.n), block), &fold)
	}
	if sp.out != nil && sp.out.kind != kQueue && !sp.noCount {
		return r.count(sp.out)
	}
	return nil
}

// twcRichWarp is lb=twc's warp threshold on rich frontiers: a warp takes rows of 8 or more
// edges; lb=np's warp scheduler takes the same threshold there.
const twcRichWarp = 8

// npRichRows is lb=np's rows per block on rich frontiers (kernels/common.cuh lb_np: a.rowsPerBlock >> 8).
const npRichRows = 32

// wireOut points a's output at f (cleared), with the dedup and aggregation knobs.
func (r *run) wireOut(f *frontier, a *kargs, keep bool) error {
	sp, err := r.buf("spill", int64(r.n), false)
	if err != nil {
		return err
	}
	a.spill = sp.addr()
	a.outLen = r.lenAddr(lenTmp)
	if f == nil {
		a.outKind = kAll // nothing is stored
		return nil
	}
	b, err := r.storage(f)
	if err != nil {
		return err
	}
	a.outKind = int64(f.kind)
	switch f.kind {
	case kQueue:
		a.outQ, a.outLen, a.outCap = b.addr(), r.lenAddr(f.slot), r.qcap(f.name)
		if !keep {
			if err := r.setLen(f.slot, 0); err != nil {
				return err
			}
		}
	case kBitmap, kBoolmap:
		a.outBits, a.outBools = b.addr(), b.addr()
		if !keep {
			if err := memset8(b, 0, b.bytes); err != nil {
				return err
			}
		}
	}
	switch r.s.Dedup {
	case engine.DedupAtomic:
		st, err := r.buf("stamp", int64(r.n)*4, false)
		if err != nil {
			return err
		}
		if !keep {
			r.tag = r.eng.nextTag()
		}
		a.dedup, a.stamp, a.tag = dAtomic, st.addr(), int64(r.tag)
	case engine.DedupCull:
		cb, err := r.buf("cull", int64((r.n+31)/32)*4, false)
		if err != nil {
			return err
		}
		if !keep {
			if err := memset8(cb, 0, cb.bytes); err != nil {
				return err
			}
		}
		a.dedup, a.cull = dCull, cb.addr()
	}
	switch r.s.PushAgg {
	case engine.AggWarp:
		a.agg = aggWarp
	case engine.AggBlock:
		a.agg = aggBlock
	}
	return nil
}

func (e *Engine) nextTag() uint32 {
	e.epoch++
	if e.epoch == 0 {
		e.epoch = 1
	}
	return e.epoch
}

// membership wires the frontier f as pull's membership test: a queue is scattered into a bitmap.
func (r *run) membership(f *frontier, a *kargs) error {
	b, err := r.storage(f)
	if err != nil {
		return err
	}
	switch f.kind {
	case kBitmap:
		a.memKind, a.memBits = kBitmap, b.addr()
	case kBoolmap:
		a.memKind, a.memBools = kBoolmap, b.addr()
	default:
		m, err := r.queueToMem(f, kBitmap, "mem")
		if err != nil {
			return err
		}
		a.memKind, a.memBits = kBitmap, m.addr()
	}
	return nil
}

// queueToMem scatters queue f into a cleared bitmap or boolmap buffer.
func (r *run) queueToMem(f *frontier, kind int, name string) (buffer, error) {
	size := int64(r.n)
	if kind == kBitmap {
		size = int64((r.n+31)/32) * 4
	}
	m, err := r.buf(name, size, false)
	if err != nil {
		return m, err
	}
	if err := memset8(m, 0, m.bytes); err != nil {
		return m, err
	}
	q, err := r.storage(f)
	if err != nil {
		return m, err
	}
	a := r.args(&r.dg.out)
	a.inQ, a.inLen, a.memKind = q.addr(), r.lenAddr(f.slot), int64(kind)
	if kind == kBitmap {
		a.memBits = m.addr()
	} else {
		a.memBools = m.addr()
	}
	return m, r.launch("util_queue_to_mem", blocks(f.count, block), &a)
}

// edgeScan prepares lb=edge: the rows as a queue (compacting a bitmap or boolmap) and the
// exclusive scan of their degrees.
func (r *run) edgeScanLB(in *frontier, a *kargs) error {
	qAddr, lenAddr, cnt := a.inQ, a.inLen, in.count
	if in.kind != kQueue {
		tq, err := r.buf("rowq", int64(r.n)*4, false)
		if err != nil {
			return err
		}
		if err := r.setLen(lenTmp, 0); err != nil {
			return err
		}
		ca := r.args(&r.dg.out)
		ca.inKind, ca.inBits, ca.inBools = a.inKind, a.inBits, a.inBools
		ca.outQ, ca.outLen, ca.outCap = tq.addr(), r.lenAddr(lenTmp), int64(r.n)
		if err := r.launch("util_compact", blocks(int64(r.n), block), &ca); err != nil {
			return err
		}
		qAddr, lenAddr = tq.addr(), r.lenAddr(lenTmp)
	}
	scan, err := r.buf("scan", (cnt+1)*8, false)
	if err != nil {
		return err
	}
	sums, err := r.buf("sums", ((cnt+1023)/1024+1)*8, false)
	if err != nil {
		return err
	}
	sa := *a
	sa.inQ, sa.inLen, sa.inScan, sa.err = qAddr, lenAddr, scan.addr(), sums.addr()
	if err := r.launch("util_scan_blocks", blocks(cnt, 1024), &sa); err != nil {
		return err
	}
	if err := r.launch("util_scan_sums", 1, &sa); err != nil {
		return err
	}
	if err := r.launch("util_scan_add", blocks(cnt, block), &sa); err != nil {
		return err
	}
	a.inKind, a.inQ, a.inLen, a.inScan = kQueue, qAddr, lenAddr, scan.addr()
	return nil
}

// count launches util_count over a bitmap or boolmap frontier (ctr[cCount], ctr[cCountEdges]).
func (r *run) count(f *frontier) error {
	b, err := r.storage(f)
	if err != nil {
		return err
	}
	a := r.args(&r.dg.out)
	a.inKind = int64(f.kind)
	a.inBits, a.inBools = b.addr(), b.addr()
	return r.launch("util_count", blocks(int64(r.n), block*4), &a)
}

// finishStep reads the counters back and settles the output frontier: on overflow the queue
// grows and the spilled pushes are folded in (no work is lost or redone); its count and edges
// are set for the next step.
func (r *run) finishStep(out, far *frontier) error {
	if err := r.readCounters(); err != nil {
		return err
	}
	if r.hostCtl[cOverflow] != 0 {
		if err := r.grow(out, far); err != nil {
			return err
		}
	}
	if out == nil {
		return nil
	}
	if out.kind == kQueue {
		out.count, out.edges = r.queueLen(out.slot), int64(r.hostCtl[cScout])
	} else {
		out.count, out.edges = int64(r.hostCtl[cCount]), int64(r.hostCtl[cCountEdges])
	}
	if far != nil {
		far.count = r.queueLen(far.slot)
	}
	return nil
}

// grow doubles the overflowed queues (keeping their entries) and folds the spill boolmap
// into out.
func (r *run) grow(out, far *frontier) error {
	// Every queue grows to hold all the pushes attempted into it; the near worklist also takes
	// the far pile's spilled pushes.
	var farSpilled int64
	if far != nil {
		if att, c := r.queueLen(far.slot), r.qcap(far.name); att > c {
			farSpilled = att - c
		}
	}
	for _, f := range []*frontier{out, far} {
		if f == nil || f.kind != kQueue {
			continue
		}
		c := r.qcap(f.name)
		att := r.queueLen(f.slot)
		used := min(att, c)
		if err := r.setLen(f.slot, uint32(used)); err != nil {
			return err
		}
		need := att
		if f == out {
			need += farSpilled
		} else if out == nil || out.kind != kQueue {
			need += farSpilled // the far pile takes back its own spill
		}
		nc := max(2*c, need+need/8)
		if _, err := r.buf(f.name, nc*4, true); err != nil {
			return err
		}
	}
	// Fold the spilled pushes into the output queue, or into the far pile when the output is
	// a bitmap or boolmap (only the far pile can have spilled then).
	target := out
	if target == nil || target.kind != kQueue {
		target = far
	}
	if target == nil {
		return nil
	}
	sp, err := r.buf("spill", int64(r.n), false)
	if err != nil {
		return err
	}
	q, err := r.storage(target)
	if err != nil {
		return err
	}
	a := r.args(&r.dg.out)
	a.spill, a.outQ, a.outLen, a.outCap = sp.addr(), q.addr(), r.lenAddr(target.slot), r.qcap(target.name)
	if err := r.launch("util_compact", blocks(int64(r.n), block), &a); err != nil {
		return err
	}
	ov := append([]uint64(nil), r.hostCtl[:16]...)
	if err := r.readCounters(); err != nil {
		return err
	}
	// keep this step's counters; only the lengths changed
	copy(r.hostCtl, ov)
	return nil
}
