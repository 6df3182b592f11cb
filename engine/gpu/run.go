//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

// pendingKernel is a launch whose time is read once its end event has passed.
type pendingKernel struct {
	name        string
	grid, block int
	ev          int
}

// run is one execution: the request, the device buffers it allocated, and the trace so far.
type run struct {
	eng       *Engine
	dev       *device
	ctx       context.Context
	req       *engine.Request
	res       *engine.Result
	g         *graph.CSR
	dg        *devGraph
	n         int
	m         int64
	s         engine.Schedule // resolved
	bufs      map[string]*buffer
	ctl       buffer
	hostCtl   []uint64 // page-locked (device.staging), outside Go's heap: cgo may not see a pointer into run
	pending   []pendingKernel
	nextEvent int
	elapsed   time.Duration
	iter      int
	iterStart time.Time
	tag       uint32
	note      string  // added to the next iteration record's note
	bigStep   int64   // a push step of at least this many edges runs lb=edge (0: never; resolveSSSP)
	prRank    buffer  // PageRank: the buffer holding the latest ranks
	tc        *tcPlan // triangle counting: what resolveTC left for the run
	bc        *bcPlan // betweenness centrality: what prepareBC uploaded for batches
	collect   func() error
}

// release returns the run's buffers to the engine's pool (the next run of a similar size
// reuses them instead of allocating) and frees the rest.
func (r *run) release() {
	for name, b := range r.bufs {
		r.eng.pool.put(name, *b)
	}
	r.ctl.free()
}

// bufPool keeps the buffers of finished runs, by name, for the next run.
type bufPool struct {
	bufs  map[string]buffer
	bytes int64
}

const poolLimit = 8 << 30

func (p *bufPool) put(name string, b buffer) {
	if p.bufs == nil {
		p.bufs = map[string]buffer{}
	}
	if old, ok := p.bufs[name]; ok {
		if old.bytes >= b.bytes {
			b.free()
			return
		}
		p.bytes -= old.bytes
		old.free()
	}
	if p.bytes+b.bytes > poolLimit {
		b.free()
		delete(p.bufs, name)
		return
	}
	p.bufs[name] = b
	p.bytes += b.bytes
}

// take returns the pooled buffer called name if it holds at least bytes.
func (p *bufPool) take(name string, bytes int64) (buffer, bool) {
	b, ok := p.bufs[name]
	if !ok || b.bytes < bytes {
		return buffer{}, false
	}
	delete(p.bufs, name)
	p.bytes -= b.bytes
	return b, true
}

func (p *bufPool) drain() {
	for name, b := range p.bufs {
		b.free()
		delete(p.bufs, name)
	}
	p.bytes = 0
}

// setup resolves the schedule with the algorithm's driver and uploads the graph (the
// out-CSR) if it is not cached.
func (r *run) setup(d driver) error {
	r.n, r.m = r.g.NumVertices(), r.g.NumArcs()
	r.bufs = map[string]*buffer{}
	pin, err := r.dev.staging()
	if err != nil {
		return err
	}
	r.hostCtl = pin.ctl
	clear(r.hostCtl)
	if err := r.resolve(d); err != nil {
		return err
	}
	dg, err := r.eng.graph(r.g, r.estimate())
	if err != nil {
		return err
	}
	r.dg = dg
	if r.ctl, err = alloc(ctlWords * 8); err != nil {
		return err
	}
	return memset8(r.ctl, 0, ctlWords*8)
}

// estimate is the device memory a run needs beyond the graph: per-vertex state, two worklists
// of up to V entries, bitmaps and boolmaps.
func (r *run) estimate() int64 {
	n := int64(r.n)
	return n*4*6 + n*4*4 + n*2 + 1<<20
}

// buf returns the named run buffer of at least bytes, allocating (and zeroing) it on first use.
// keep says whether to preserve the contents when it grows.
func (r *run) buf(name string, bytes int64, keep bool) (buffer, error) {
	return r.takeBuf(name, bytes, keep, true)
}

// scratch is buf for a buffer whose kernel writes every entry before reading it: it is not
// zeroed, which saves a memset (host time inside the timed run) when it comes from the pool.
func (r *run) scratch(name string, bytes int64) (buffer, error) {
	return r.takeBuf(name, bytes, false, false)
}

// takeBuf is buf, zeroing the buffer when it is first taken only if zero is set.
func (r *run) takeBuf(name string, bytes int64, keep, zero bool) (buffer, error) {
	if b, ok := r.bufs[name]; ok && b.bytes >= bytes {
		return *b, nil
	}
	nb, pooled := r.eng.pool.take(name, bytes)
	if !pooled {
		free, _, err := cu.MemInfo()
		if err != nil {
			return buffer{}, check("cuMemGetInfo", err)
		}
		if bytes > free {
			r.eng.pool.drain()
			if free, _, err = cu.MemInfo(); err != nil {
				return buffer{}, check("cuMemGetInfo", err)
			}
		}
		if bytes > free {
			return buffer{}, fmt.Errorf("gpu: the run's %s needs %d MiB of device memory and %d MiB are free", name, bytes>>20, free>>20)
		}
		if nb, err = alloc(bytes); err != nil {
			return buffer{}, err
		}
	}
	if zero || keep {
		if err := memset8(nb, 0, nb.bytes); err != nil {
			nb.free()
			return buffer{}, err
		}
	}
	if old, ok := r.bufs[name]; ok {
		if keep {
			if err := copyBuf(nb, *old, old.bytes); err != nil {
				nb.free()
				return buffer{}, err
			}
		}
		old.free()
	}
	r.bufs[name] = &nb
	return nb, nil
}

// lenAddr is the device address of queue length slot i.
func (r *run) lenAddr(i int) uint64 { return r.ctl.addr() + uint64(i)*4 }

// queueLen reads queue length slot i from the last counter read-back.
func (r *run) queueLen(i int) int64 { return int64(uint32(r.hostCtl[i/2] >> (32 * (i % 2)))) }

// clearCounters zeroes the counters (not the queue lengths).
func (r *run) clearCounters() error { return memset8(r.ctl, 0, 16*8) }

// setLen sets queue length slot i on the device.
func (r *run) setLen(i int, v uint32) error {
	if err := markStart(); err != nil {
		return err
	}
	return check("cuMemsetD32", cu.MemsetD32(cu.DevicePtr(r.lenAddr(i)), v, 1))
}

// setWord sets the 4-byte word at byte offset off of b to v: a memset, which the host does not
// wait for, where a copy from the host's (pageable) memory first waits for the device to
// finish what it was given.
func (r *run) setWord(b buffer, off int64, v uint32) error {
	if err := markStart(); err != nil {
		return err
	}
	return check("cuMemsetD32", cu.MemsetD32(b.ptr+cu.DevicePtr(off), v, 1))
}

// readCounters waits for the device and reads the counters and lengths back. A failed kernel
// surfaces here.
func (r *run) readCounters() error {
	return check("cuMemcpyDtoH (counters)", cu.MemcpyDtoH(unsafe.Pointer(&r.hostCtl[0]), r.ctl.ptr, ctlWords*8))
}

func (r *run) sync() error { return check("cuCtxSynchronize", cu.Synchronize()) }

// kernels turns the pending launches into trace entries (the device has passed them).
func (r *run) kernels() ([]engine.Kernel, error) {
	ks := make([]engine.Kernel, 0, len(r.pending))
	for _, p := range r.pending {
		ms, err := r.dev.events[p.ev].Elapsed(r.dev.events[p.ev+1])
		if err != nil {
			return nil, check("cuEventElapsedTime", err)
		}
		ks = append(ks, engine.Kernel{Name: p.name, Grid: p.grid, Block: p.block, Time: time.Duration(ms * 1e6)})
	}
	r.pending = r.pending[:0]
	r.nextEvent = 0
	return ks, nil
}

// begin starts an iteration: checks for cancellation and clears the counters.
func (r *run) begin() error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.iterStart = time.Now()
	return r.clearCounters()
}

// emit appends rec (with the kernels launched since the last record, and its time unless it
// has one) to the trace and streams it.
func (r *run) emit(rec engine.Record) error {
	if rec.Kind == engine.IterationRecord {
		ks, err := r.kernels()
		if err != nil {
			return err
		}
		rec.Kernels = append(rec.Kernels, ks...) // a record built after the run may bring its kernels
		rec.Iter = r.iter
		if rec.Time == 0 { // a record built after the timing (collect) brings its own
			rec.Time = time.Since(r.iterStart)
		}
		r.iter++
		if r.note != "" {
			if rec.Note != "" {
				rec.Note += "; "
			}
			rec.Note += r.note
			r.note = ""
		}
	} else {
		rec.Iter = r.iter
	}
	r.res.Trace.Records = append(r.res.Trace.Records, rec)
	r.req.Emit(rec)
	return nil
}

// writeBuf copies host data into b at byte offset off.
func (r *run) writeBuf(b buffer, off int64, data any) error {
	var p unsafe.Pointer
	var n int64
	switch d := data.(type) {
	case []uint32:
		p, n = unsafe.Pointer(&d[0]), int64(len(d))*4
	case []int32:
		p, n = unsafe.Pointer(&d[0]), int64(len(d))*4
	case []byte:
		p, n = unsafe.Pointer(&d[0]), int64(len(d))
	default:
		return fmt.Errorf("gpu: writeBuf: unsupported %T", data)
	}
	if err := markStart(); err != nil {
		return err
	}
	return check("cuMemcpyHtoD", cu.MemcpyHtoD(b.ptr+cu.DevicePtr(off), p, n))
}

// copyBuf copies bytes from src to dst on the device.
func copyBuf(dst, src buffer, bytes int64) error {
	if err := markStart(); err != nil {
		return err
	}
	return check("cuMemcpyDtoD", cu.MemcpyDtoD(dst.ptr, src.ptr, bytes))
}

// values returns a per-vertex value buffer of n 4-byte entries, poisoned when the engine poisons (Engine.poison).
func (r *run) values(name string) (buffer, error) {
	b, err := r.buf(name, int64(r.n)*4, false)
	if err != nil {
		return b, err
	}
	if r.eng.poison {
		return b, memset8(b, 0xA5, b.bytes)
	}
	return b, nil
}

// values64 is values for 8-byte entries.
func (r *run) values64(name string) (buffer, error) {
	b, err := r.buf(name, int64(r.n)*8, false)
	if err != nil {
		return b, err
	}
	if r.eng.poison {
		return b, memset8(b, 0xA5, b.bytes)
	}
	return b, nil
}
