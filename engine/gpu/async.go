//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// method=async: BFS and SSSP as a partitioned asynchronous traversal in one persistent launch
// (kernels/async.cu). The vertices are cut into one compact range per SM (asyncOrder);
// each block keeps its range's offsets, values and worklists in shared memory, relaxes its
// vertices as they are queued (no barrier between levels) and sends the relaxations that reach
// other ranges to their owners' mailboxes. Windows of the values (a BFS's levels, SSSP's delta)
// keep the asynchrony from running ahead: a value past the window waits for the next one, as
// in delta-stepping, so a vertex is relaxed about once; the last block to go idle with every
// mailbox drained opens the next window. A level-synchronous traversal of a road network pays
// a grid-wide barrier (fuse=on) or a block's barrier and a few L2 round trips of its
// worklists (fuse=block) for each of its thousands of levels; here a hop inside a range costs
// shared-memory atomics and one read of the neighbour list.
//
// [1] Meyer, Sanders. Delta-stepping: a parallelizable shortest path algorithm. J. Algorithms 2003.
// [2] Wang, Zhang, Chen, Sun, Owens (ADDS). A fast work-efficient SSSP algorithm for GPUs. PPoPP 2021.
// [3] Ben-Nun, Sutton, Pai, Pingali (Groute). An asynchronous multi-GPU programming model. PPoPP 2017.

// The shape of method=async's launch.
const (
	asyncThreads = 768   // a block's threads: warp 0 the mailbox and windows, warp 1 the outbox, the rest relax
	asyncOutbox  = 1024  // outbox entries a block (OCAP in kernels/async.cu)
	asyncMailbox = 16384 // mailbox entries a range (u64 each)
	asyncRows    = 1024  // trace rows (windows; the last row takes any more)
	asyncTrace   = 5     // trace words a row (NTRACE): open time, relaxed vertices, messages, arcs, window end
	asyncCtl     = 64    // bytes of control words before the mailboxes' tails
	// asyncLimit stops a launch that runs this long (the kernel's watchdog), so that a fault
	// in the windows' hand-over becomes an error instead of a hung device.
	asyncLimit = 20 * time.Second
	// asyncBFSWindow is BFS's window, in levels: wide enough that opening windows costs little,
	// narrow enough that few vertices are relaxed twice (road NE: docs/gpu-notes.md).
	asyncBFSWindow = 256
	// asyncDeltaFactor times the mean weight is SSSP's auto window (delta) under method=async
	// (road NE: docs/gpu-notes.md).
	asyncDeltaFactor = 32
	// asyncManyWindows: a run stopped by the watchdog after this many windows had windows too
	// small for its distances, and is told so.
	asyncManyWindows = 10000
)

// asyncLayout is the relabeled, partitioned graph of method=async, built on the host and
// uploaded once per graph (devGraph.async), with the mailboxes the runs share: the kernel
// leaves every mailbox slot empty when a run completes.
type asyncLayout struct {
	parts, per int   // ranges of per vertices, one a block
	ring       int   // ring entries a block (a power of 2)
	shmem      int   // dynamic shared memory a block, bytes
	cross      int64 // arcs from one range to another
	weighted   bool
	// shared: the ranges' neighbour lists are in shared memory too (asyncHost.shared), with
	// maxArcs the most arcs a range has
	shared      bool
	maxArcs     int
	rank        []uint32 // original id -> new id
	off         buffer   // i64 per new id, +1
	nbr, wt     buffer   // u32 neighbour (new id) and i32 weight per arc
	perm        buffer   // u32: new id -> original id
	snb, wt8    buffer   // shared: u16 list entry and u8 weight per arc
	remote      buffer   // shared: the ranges' remote tables (new ids), one after another
	remoteStart buffer   // shared: u32 where each range's remote table starts
	mb          buffer   // parts x asyncMailbox messages
	ctl         buffer   // control words, mailbox tails and heads, trace
	dirty       bool     // a launch did not complete: the mailboxes need clearing
	built       time.Duration
}

func (l *asyncLayout) buffers() []*buffer {
	return []*buffer{&l.off, &l.nbr, &l.wt, &l.perm, &l.snb, &l.wt8, &l.remote, &l.remoteStart, &l.mb, &l.ctl}
}

func (l *asyncLayout) free() {
	for _, b := range l.buffers() {
		b.free()
	}
}

func (l *asyncLayout) bytes() int64 {
	var n int64
	for _, b := range l.buffers() {
		n += b.bytes
	}
	return n
}

// ctlBytes is the control block's size: 64 bytes of control words, parts mailbox tails and
// heads, and the trace's rows and stop time.
func (l *asyncLayout) ctlBytes() int64 {
	return asyncCtl + int64(l.parts)*8 + (asyncRows+1)*asyncTrace*8
}

// resolveAsync settles method=async for BFS or SSSP: taken when asked for (refused with the
// reason when the graph's ranges do not fit the SMs' shared memory), and by method=auto on a
// road network (average degree under 4, an estimated diameter of 500 or more) that fits, when
// no knob of the level-synchronous traversals is set. It reports whether the run is async.
func resolveAsync(r *run, s *engine.Schedule, a engine.Algorithm) (bool, error) {
	switch s.Method {
	case engine.AsyncRanges:
		if err := r.asyncFits(); err != nil {
			return false, err
		}
	case engine.MethodAuto:
		p := r.g.Properties()
		// every other knob auto (delta is async's window too; the CPU's knobs do not apply)
		auto := engine.Schedule{Delta: s.Delta, Workers: s.Workers, Chunk: s.Chunk, Split: s.Split}
		if *s != auto || p.AvgDegree >= 4 || p.Diameter < 500 || r.asyncFits() != nil {
			return false, nil
		}
		s.Method = engine.AsyncRanges
	default:
		return false, nil
	}
	s.Direction, s.Driven = engine.Push, engine.Data
	if a == engine.SSSP && s.Delta == 0 {
		s.Delta = asyncDelta(r)
	}
	return true, nil
}

// asyncDelta is SSSP's window under method=async: asyncDeltaFactor times the mean weight
// (sampled), asyncBFSWindow on an unweighted graph.
func asyncDelta(r *run) int {
	mean, ok := meanWeight(r.g.Weights)
	if !ok {
		return asyncBFSWindow
	}
	return max(int(mean*asyncDeltaFactor), 1)
}

// asyncShape returns the ranges of method=async for n vertices on sms SMs whose blocks may ask
// for shOptin bytes of shared memory: per vertices a range, the ring's entries and the shared
// memory a block needs; ok is false when a range does not fit.
func asyncShape(n, sms, shOptin int) (per, ring, shmem int, ok bool) {
	if n == 0 || sms == 0 {
		return 0, 0, 0, false
	}
	per = (n + sms - 1) / sms
	ring = 1
	for ring < per+asyncThreads {
		ring <<= 1
	}
	shmem = asyncShared(per, ring, 4, 0, false)
	return per, ring, shmem, shmem <= shOptin
}

// asyncShared is a block's dynamic shared memory (the layout in kernels/async.cu): the outbox,
// per+1 offsets and ring entries of slot bytes, per values and two bitmaps; with shared lists,
// maxArcs u16 entries and, weighted, as many u8 weights.
func asyncShared(per, ring, slot, maxArcs int, weighted bool) int {
	words := (per + 31) / 32
	b := 8*asyncOutbox + slot*((per+2)&^1) + 4*per + 8*words + slot*ring
	if maxArcs > 0 {
		b += 2 * ((maxArcs + 1) &^ 1)
		if weighted {
			b += maxArcs
		}
	}
	return b
}

// asyncFits says whether method=async can run g on this device (its ranges fit a block's
// shared memory), and why not.
func (r *run) asyncFits() error {
	per, _, shmem, ok := asyncShape(r.n, r.dev.sms, r.dev.shOptin)
	if !ok {
		return unsupported("method=async keeps a range of the vertices in each SM's shared memory: %d vertices over %d SMs is %d a range, %d bytes a block, more than the %d a block may have",
			r.n, r.dev.sms, per, shmem, r.dev.shOptin)
	}
	return nil
}

// prepareAsync builds and uploads the layout once per graph (a weighted one for SSSP on a
// weighted graph), outside the timing.
func prepareAsync(r *run, weighted bool) error {
	weighted = weighted && len(r.g.Weights) > 0
	if l := r.dg.async; l != nil && l.weighted == weighted && l.parts == r.dev.sms {
		return nil
	}
	if r.dg.async != nil {
		r.dg.async.free()
		r.dg.async = nil
	}
	t0 := time.Now()
	per, ring, shmem, ok := asyncShape(r.n, r.dev.sms, r.dev.shOptin)
	if !ok {
		return r.asyncFits()
	}
	l := &asyncLayout{parts: r.dev.sms, per: per, ring: ring, shmem: shmem, weighted: weighted}
	need := (int64(r.n)+1)*8 + r.m*4 + int64(r.n)*4 + int64(l.parts)*asyncMailbox*8 + l.ctlBytes()
	if weighted {
		need += r.m * 4
	}
	if err := r.eng.ensureFree(need+r.estimate(), "the partitioned graph (method=async) and this run"); err != nil {
		return err
	}
	h := buildAsync(r.g, l.parts, per, weighted)
	l.rank, l.cross = h.rank, h.cross
	if h.shared {
		// the shared lists where a block's shared memory and the device's memory hold them
		extra := int64(len(h.snb))*2 + int64(len(h.wt8)) + int64(len(h.remote)+len(h.remoteStart))*4
		sh := asyncShared(per, ring, 2, h.maxArcs, weighted)
		if sh <= r.dev.shOptin && r.eng.ensureFree(need+extra+r.estimate(), "") == nil {
			l.shared, l.maxArcs, l.shmem = true, h.maxArcs, sh
		}
	}
	var err error
	ups := []layoutPart{part(&l.off, h.off), part(&l.nbr, h.nbr), part(&l.perm, h.perm)}
	if weighted {
		ups = append(ups, part(&l.wt, h.wt))
	}
	if l.shared {
		ups = append(ups, part(&l.snb, h.snb), part(&l.remote, h.remote), part(&l.remoteStart, h.remoteStart))
		if weighted {
			ups = append(ups, part(&l.wt8, h.wt8))
		}
	}
	for _, p := range ups {
		if *p.dst, err = p.up(); err != nil {
			l.free()
			return err
		}
	}
	if l.mb, err = alloc(int64(l.parts) * asyncMailbox * 8); err != nil {
		l.free()
		return err
	}
	if err := memset8(l.mb, 0xff, l.mb.bytes); err != nil {
		l.free()
		return err
	}
	if l.ctl, err = alloc(l.ctlBytes()); err != nil {
		l.free()
		return err
	}
	l.built = time.Since(t0)
	r.dg.async = l
	return nil
}

// asyncHost is buildAsync's result (asyncLayout's host side).
type asyncHost struct {
	rank, perm []uint32
	off        []int64
	nbr        []uint32
	wt         []int32
	cross      int64
	// shared: every range's lists fit u16 entries (a local id below per, or per + an index
	// into the range's remote table, both under 65,535, the ring's empty mark) and u16
	// offsets, and, weighted, every weight fits a byte; then snb, wt8, remote and
	// remoteStart hold them, and maxArcs is the most arcs a range has.
	shared      bool
	maxArcs     int
	snb         []uint16
	wt8         []uint8
	remote      []uint32
	remoteStart []uint32
}

// buildAsync relabels g's vertices by asyncOrder and writes the relabeled CSR, counting the arcs
// between ranges of per, and the ranges' shared lists where they fit.
func buildAsync(g *graph.CSR, parts, per int, weighted bool) *asyncHost {
	n := g.NumVertices()
	h := &asyncHost{rank: make([]uint32, n), perm: asyncOrder(g, parts, per), off: make([]int64, n+1), nbr: make([]uint32, len(g.Neighbors))}
	for i, v := range h.perm {
		h.rank[v] = uint32(i)
	}
	if weighted {
		h.wt = make([]int32, len(g.Neighbors))
	}
	var a int64
	for i, u := range h.perm {
		h.off[i] = a
		lo, hi := g.Offsets[u], g.Offsets[u+1]
		for e := lo; e < hi; e++ {
			v := h.rank[g.Neighbors[e]]
			h.nbr[a] = v
			if weighted {
				h.wt[a] = g.Weights[e]
			}
			if int(v)/per != i/per {
				h.cross++
			}
			a++
		}
	}
	h.off[n] = a
	h.buildShared(parts, per, weighted)
	return h
}

// buildShared writes the ranges' shared lists (asyncHost.shared) when they fit.
func (h *asyncHost) buildShared(parts, per int, weighted bool) {
	const empty = 0xffff // the ring's empty mark: no entry may equal it
	n := len(h.perm)
	if per >= empty {
		return
	}
	if weighted {
		for _, w := range h.wt {
			if w < 0 || w > 255 {
				return
			}
		}
		h.wt8 = make([]uint8, len(h.wt))
		for i, w := range h.wt {
			h.wt8[i] = uint8(w)
		}
	}
	h.snb = make([]uint16, len(h.nbr))
	h.remoteStart = make([]uint32, parts+1)
	for p := 0; p < parts; p++ {
		h.remoteStart[p] = uint32(len(h.remote))
		v0, v1 := min(p*per, n), min((p+1)*per, n)
		b, e := h.off[v0], h.off[v1]
		if e-b >= 1<<16 {
			h.snb, h.wt8, h.remote, h.remoteStart = nil, nil, nil, nil
			return
		}
		h.maxArcs = max(h.maxArcs, int(e-b))
		for k := b; k < e; k++ {
			w := int(h.nbr[k])
			if w >= v0 && w < v1 {
				h.snb[k] = uint16(w - v0)
				continue
			}
			j := per + len(h.remote) - int(h.remoteStart[p])
			if j >= empty {
				h.snb, h.wt8, h.remote, h.remoteStart = nil, nil, nil, nil
				return
			}
			h.snb[k] = uint16(j)
			h.remote = append(h.remote, uint32(w))
		}
	}
	h.remoteStart[parts] = uint32(len(h.remote))
	h.shared = true
}

// asyncOrder cuts g's vertices into parts ranges of per by recursive bisection: a set is listed
// in BFS order from a pseudo-peripheral vertex (the last vertex of a BFS from the last vertex
// of a BFS, component by component; on a directed graph, from s itself when that one does not
// reach back to s) and cut after half of its ranges' vertices; each half is cut
// again until one range is left, which keeps its BFS order. On a road network the ranges are
// compact regions: on NE 1.9% of the arcs cross ranges against 15.6% for ranges of one BFS
// order from vertex 0, and a shortest path crosses ~50 ranges instead of ~260 (a crossing is a
// message through global memory; docs/gpu-notes.md).
func asyncOrder(g *graph.CSR, parts, per int) []uint32 {
	n := g.NumVertices()
	in := make([]int32, n)   // the set being ordered: in[v] == set
	seen := make([]int32, n) // visited by the current sweep: seen[v] == sweep
	var set, sweep int32
	out := make([]uint32, 0, n)
	var q []uint32
	// bfs lists the vertices of the set reachable from s, in BFS order, into q.
	bfs := func(s uint32) {
		sweep++
		q = append(q[:0], s)
		seen[s] = sweep
		for i := 0; i < len(q); i++ {
			u := q[i]
			for _, v := range g.Neighbors[g.Offsets[u]:g.Offsets[u+1]] {
				if in[v] == set && seen[v] != sweep {
					seen[v] = sweep
					q = append(q, v)
				}
			}
		}
	}
	var cut func(vs []uint32, k int)
	cut = func(vs []uint32, k int) {
		set++
		for _, v := range vs {
			in[v] = set
		}
		ord := make([]uint32, 0, len(vs))
		for _, s := range vs {
			if in[s] != set {
				continue // placed with an earlier component
			}
			bfs(s)
			bfs(q[len(q)-1])
			bfs(q[len(q)-1])
			if seen[s] != sweep {
				bfs(s) // directed: the far vertex does not reach back to s; list what s reaches
			}
			for _, v := range q {
				in[v] = -1
			}
			ord = append(ord, q...)
		}
		if k <= 1 {
			out = append(out, ord...)
			return
		}
		k1 := k / 2
		n1 := min(len(ord), k1*per)
		cut(ord[:n1], k1)
		cut(ord[n1:], k-k1)
	}
	all := make([]uint32, n)
	for v := range all {
		all[v] = uint32(v)
	}
	cut(all, parts)
	return out
}

// asyncArgs mirrors struct AsyncArgs in kernels/async.cu field for field (all 8 bytes).
type asyncArgs struct {
	off, nbr, wt, perm, out, mb, mbTail, mbHead, ctl, trace uint64
	n, per, parts, mbcap, src, win, rows, ring              int64
	depth, limit                                            int64
	snb, remote, remoteStart, wt8                           uint64
	maxArcs                                                 int64
}

var _ [200 - unsafe.Sizeof(asyncArgs{})]byte // sizeof(AsyncArgs), static_asserted in async.cu
var _ [unsafe.Sizeof(asyncArgs{}) - 200]byte

// asyncTraverse runs method=async from src into val (by original id): shortest distances with
// the layout's weights when weighted, else with every arc 1, in windows of win; the unreached
// get -1 when depth (BFS), else INF_DIST.
func (r *run) asyncTraverse(src uint32, val buffer, weighted, depth bool, win int64) error {
	l := r.dg.async
	if l == nil {
		return fmt.Errorf("gpu: method=async: the partitioned graph was not prepared: internal error")
	}
	name := "async_bfs"
	if weighted && l.weighted {
		name = "async_sssp"
	}
	if l.shared {
		name += "_sn"
	}
	fn, grid, err := r.coopGridShared(name, asyncThreads, l.shmem)
	if err != nil {
		return err
	}
	if grid != l.parts {
		return fmt.Errorf("gpu: method=async: %d ranges for a grid of %d blocks: internal error", l.parts, grid)
	}
	if l.dirty {
		if err := memset8(l.mb, 0xff, l.mb.bytes); err != nil {
			return err
		}
		l.dirty = false
	}
	tails := l.ctl.addr() + asyncCtl
	heads := tails + uint64(l.parts)*4
	trace := heads + uint64(l.parts)*4
	a := asyncArgs{off: l.off.addr(), nbr: l.nbr.addr(), wt: l.wt.addr(), perm: l.perm.addr(), out: val.addr(),
		mb: l.mb.addr(), mbTail: tails, mbHead: heads, ctl: l.ctl.addr(), trace: trace,
		n: int64(r.n), per: int64(l.per), parts: int64(l.parts), mbcap: asyncMailbox, src: int64(l.rank[src]),
		win: win, rows: asyncRows, ring: int64(l.ring), limit: int64(asyncLimit),
		snb: l.snb.addr(), remote: l.remote.addr(), remoteStart: l.remoteStart.addr(), wt8: l.wt8.addr(), maxArcs: int64(l.maxArcs)}
	if depth {
		a.depth = 1
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.iterStart = time.Now()
	if err := memset8(l.ctl, 0, l.ctl.bytes); err != nil {
		return err
	}
	// active (the source), epoch, the smallest deferred value of even and odd windows, done,
	// aborted, and (an i64) the first window's end
	if err := r.writeBuf(l.ctl, 0, []int32{1, 0, infDist, infDist, 0, 0, int32(win), int32(win >> 32)}); err != nil {
		return err
	}
	l.dirty = true
	if err := r.timedKernel(name, grid, asyncThreads, func() error {
		if err := launchShared(fn, grid, asyncThreads, l.shmem, unsafe.Pointer(&a), true); err != nil {
			return fmt.Errorf("%w (kernel %s, cooperative grid %d x %d, %d bytes of shared memory)", err, name, grid, asyncThreads, l.shmem)
		}
		return nil
	}); err != nil {
		return err
	}
	return nil
}

// asyncRecords turns the kernel's trace into one record per window (after the device is done):
// the window's values, how many vertices it relaxed and arcs it read, and the messages between
// ranges. It marks the mailboxes clean (the launch completed).
func (r *run) asyncRecords(win int64, unit string) error {
	l := r.dg.async
	h := make([]uint64, l.ctlBytes()/8)
	if err := download(h, l.ctl); err != nil {
		return err
	}
	ctl := (*[8]int32)(unsafe.Pointer(&h[0]))
	windows := int64(ctl[1]) + 1
	tr := h[(asyncCtl+int64(l.parts)*8)/8:]
	tr[4] = uint64(win) // the first window's end (the kernel writes the others')
	if ctl[5] != 0 && windows >= asyncManyWindows {
		return fmt.Errorf("gpu: method=async: the launch was stopped after %v (the limit is %v), %d windows of %d %s in, at %d: windows this small for this graph's values cost more than the limit; a larger delta, or method=nearfar",
			time.Duration(tr[asyncRows*asyncTrace]-tr[0]), asyncLimit, windows, win, unit, h[3])
	}
	if ctl[5] != 0 {
		return fmt.Errorf("gpu: method=async: the launch was stopped after %v (the limit is %v), %d windows of %d %s in, in the window ending at %d, with %d of active: internal error",
			time.Duration(tr[asyncRows*asyncTrace]-tr[0]), asyncLimit, windows, win, unit, h[3], ctl[0])
	}
	l.dirty = false
	stop := tr[asyncRows*asyncTrace]
	lists := ""
	if l.shared {
		lists = fmt.Sprintf(" with their neighbour lists (up to %d arcs a range)", l.maxArcs)
	}
	if err := r.emit(engine.Record{Kind: engine.PhaseRecord, Phase: "async",
		Note: fmt.Sprintf("%d ranges of %d vertices in shared memory%s (recursive bisection; %d arcs, %.1f%%, cross ranges), windows of %d %s, one cooperative launch of %d x %d (layout built in %v, before the timing)",
			l.parts, l.per, lists, l.cross, 100*float64(l.cross)/float64(max(r.m, 1)), win, unit, l.parts, asyncThreads, l.built.Round(time.Millisecond))}); err != nil {
		return err
	}
	rows := min(windows, asyncRows)
	for k := int64(0); k < rows; k++ {
		row := tr[k*asyncTrace : (k+1)*asyncTrace]
		end := stop
		if k+1 < rows {
			end = tr[(k+1)*asyncTrace]
		}
		var t time.Duration
		if end > row[0] {
			t = time.Duration(end - row[0])
		}
		lo := int64(row[4]) - win
		note := fmt.Sprintf("window [%d, %d): %d messages between ranges", lo, lo+win, row[2])
		if k == asyncRows-1 && windows > asyncRows {
			note = fmt.Sprintf("windows %d to %d (the last ending at %d %s): %d messages between ranges", k, windows-1, row[4], unit, row[2])
		}
		rec := engine.Record{Kind: engine.IterationRecord, Iter: int(k), Direction: engine.Push, Mode: engine.Data,
			InVertices: int64(row[1]), EdgesScanned: int64(row[3]), Time: t, Note: note}
		if err := r.emit(rec); err != nil {
			return err
		}
	}
	return nil
}
