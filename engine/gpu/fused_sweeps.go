//go:build cuda

package gpu

import (
	"fmt"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
)

// Fused all-vertex loops (fuse=on for PageRank and CC): the whole loop of sweeps in one
// cooperative launch with grid-wide barriers, and the convergence test on the device, so that
// no sweep waits for a counter read-back or a launch (IrGL's iteration outlining, UGF's kernel
// fusion). As for the fused traversals (fused.go), each sweep writes its counters and a
// globaltimer stamp into a device buffer, which the host turns into the same iteration records
// when the launch returns; a launch runs at most fuseChunk sweeps, so cancellation is seen
// between chunks.

// coopSweeps launches kernel name cooperatively over a with a fresh trace buffer of iters
// sweeps, and returns the trace (iters+1 rows of nCounters words: row iters holds the start
// stamp in cStop), the launch's event time and its grid.
func (r *run) coopSweeps(name string, a *kargs, iters int) ([]uint64, time.Duration, int, error) {
	return r.coopSweepsShared(name, a, iters, block, 0, 0)
}

// coopSweepsShared is coopSweeps with blocks of threads threads and shmem bytes of dynamic
// shared memory each (the staged tiled pull's one block per SM), or with blocks of 256 and no
// shared memory, at most perSM of them per SM when perSM > 0.
func (r *run) coopSweepsShared(name string, a *kargs, iters, threads, shmem, perSM int) ([]uint64, time.Duration, int, error) {
	var fn cu.Function
	var grid int
	var err error
	if threads == block && shmem == 0 {
		fn, grid, err = r.coopGrid(name, perSM)
	} else {
		fn, grid, err = r.coopGridShared(name, threads, shmem)
	}
	if err != nil {
		return nil, 0, 0, err
	}
	trace, err := r.buf("trace", (fuseChunk+1)*nCounters*8, false)
	if err != nil {
		return nil, 0, 0, err
	}
	if err := memset8(trace, 0, trace.bytes); err != nil {
		return nil, 0, 0, err
	}
	a.trace, a.iters = trace.addr(), int64(iters)
	ev0, ev1, err := r.timed(func() error {
		if err := launchShared(fn, grid, threads, shmem, unsafe.Pointer(a), true); err != nil {
			return fmt.Errorf("%w (kernel %s, cooperative grid %d x %d, %d bytes of shared memory)", err, name, grid, threads, shmem)
		}
		return nil
	})
	if err != nil {
		return nil, 0, 0, err
	}
	h := make([]uint64, (iters+1)*nCounters)
	if err := check("cuMemcpyDtoH (fused trace)", cu.MemcpyDtoH(unsafe.Pointer(&h[0]), trace.ptr, int64(len(h))*8)); err != nil {
		return nil, 0, 0, err
	}
	ms, err := ev0.Elapsed(ev1)
	if err != nil {
		return nil, 0, 0, check("cuEventElapsedTime", err)
	}
	r.nextEvent, r.pending = 0, r.pending[:0]
	return h, time.Duration(float64(ms) * 1e6), grid, nil
}

// coopGridShared is coopGrid for blocks of threads threads with shmem bytes of dynamic shared
// memory: every block resident, at most one per SM (the staged tiled pull's shape).
func (r *run) coopGridShared(name string, threads, shmem int) (cu.Function, int, error) {
	fn, err := r.dev.fn(name)
	if err != nil {
		return fn, 0, err
	}
	if err := maxDynamicShared(fn, shmem); err != nil {
		return fn, 0, err
	}
	per, err := fn.MaxActiveBlocksPerMultiProcessor(threads, int64(shmem))
	if err != nil {
		return fn, 0, check("cuOccupancyMaxActiveBlocksPerMultiprocessor", err)
	}
	if per < 1 {
		return fn, 0, fmt.Errorf("gpu: kernel %s: no block of %d threads and %d bytes of shared memory fits an SM", name, threads, shmem)
	}
	return fn, r.dev.sms, nil
}

// fusedRecords emits one iteration record per sweep the launch completed (a non-zero cTime
// stamp), built by rec from the sweep's counters, and returns how many there were.
func (r *run) fusedRecords(h []uint64, iters int, name string, grid, threads int, t time.Duration, rec func(ctr []uint64) engine.Record) int {
	prev := h[iters*nCounters+cStop]
	done := 0
	for k := 0; k < iters; k++ {
		ctr := h[k*nCounters : (k+1)*nCounters]
		if ctr[cTime] == 0 {
			break
		}
		x := rec(ctr)
		x.Kind, x.Iter, x.Time = engine.IterationRecord, r.iter, time.Duration(ctr[cTime]-prev)
		if k == 0 {
			x.Kernels = []engine.Kernel{{Name: name, Grid: grid, Block: threads, Time: t}}
			if x.Note != "" {
				x.Note = "; " + x.Note
			}
			x.Note = "fused: one cooperative launch" + x.Note
		}
		prev = ctr[cTime]
		r.iter++
		r.res.Trace.Records = append(r.res.Trace.Records, x)
		r.req.Emit(x)
		done++
	}
	return done
}
