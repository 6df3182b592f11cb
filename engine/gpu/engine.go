//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/graph"
)

func init() { engine.Register("gpu", open) }

// Engine is the CUDA engine. One per process: it owns the device's context.
type Engine struct {
	mu     sync.Mutex // one run at a time
	dev    *device
	graphs map[*graph.CSR]*devGraph
	order  []*graph.CSR // least recently used first
	broken error        // set by a sticky driver error; every later run reports it
	epoch  uint32       // dedup stamps: a fresh tag per iteration, never reused
	pool   bufPool      // run buffers kept for the next run
	// poison makes every per-vertex value buffer start filled with 0xA5 bytes instead of
	// zeros, so that a kernel that leaves an entry unwritten shows in the result (the tests
	// set it, export_test.go)
	poison bool
	// mstLook and mstTail replace mstEclLook and mstEclTail when set (the tests set them,
	// export_test.go, to run the host's rounds and the cooperative tail on small graphs)
	mstLook int
	mstTail int64
	// wide makes the ECL kernels take the 64-bit offsets on every graph (the tests set it:
	// the 32-bit ones are the choice below 2^32 arcs)
	wide bool
	// bcRanks makes the fused BC's big backward levels add at their predecessors' ranks on
	// every graph (the tests set it: the choice on graphs whose per-vertex arrays exceed L2)
	bcRanks bool
}

var (
	_ engine.Engine = (*Engine)(nil)
	_ engine.Spacer = (*Engine)(nil)
)

var (
	openOnce sync.Once
	theEng   *Engine
	openErr  error
)

func open() (engine.Engine, error) {
	openOnce.Do(func() {
		d, err := openDevice()
		if err != nil {
			openErr = err
			return
		}
		theEng = &Engine{dev: d, graphs: map[*graph.CSR]*devGraph{}}
	})
	if openErr != nil {
		return nil, openErr
	}
	return theEng, nil
}

// Name returns "gpu".
func (*Engine) Name() string { return "gpu" }

// Device describes the GPU: name, multiprocessors, memory.
func (e *Engine) Device() string {
	return fmt.Sprintf("%s (%d SMs, %.0f GiB, sm_%d)", e.dev.name, e.dev.sms, float64(e.dev.mem)/(1<<30), e.dev.cc)
}

// Run validates the request and, on the device goroutine, resolves the schedule with the
// algorithm's driver (drivers), uploads the graph if it is not cached, lets the driver prepare
// (outside the timing) and run (timed), and fills the summary.
func (e *Engine) Run(ctx context.Context, req engine.Request) (*engine.Result, error) {
	if err := req.Schedule.Validate(req.Algorithm, "gpu"); err != nil {
		return nil, err
	}
	d, ok := drivers[req.Algorithm]
	if !ok {
		return nil, fmt.Errorf("gpu: %s: %w (the GPU engine runs bfs, sssp, cc, pr, tc, bc, mis and mst)", req.Algorithm, engine.ErrUnsupported)
	}
	if req.Graph == nil || req.Graph.NumVertices() == 0 {
		return nil, fmt.Errorf("gpu: the graph has no vertices")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return nil, fmt.Errorf("gpu: the engine is unusable after an earlier device error (%v); restart gworkbench to use the GPU again, or use engine=cpu", e.broken)
	}
	res := &engine.Result{
		Algorithm: req.Algorithm, Engine: "gpu", Params: req.Params, Schedule: req.Schedule,
		Graph: engine.InfoOf(req.GraphName, req.Graph),
	}
	res.Provenance = engine.MachineProvenance()
	res.Provenance.GPU = e.Device()
	var runErr error
	err := e.dev.do(func() error {
		r := &run{eng: e, dev: e.dev, ctx: ctx, req: &req, res: res, g: req.Graph}
		defer r.release()
		if err := r.setup(d); err != nil {
			return err
		}
		if d.prepare != nil {
			// once per graph, outside the timing, as the graph's upload
			if err := d.prepare(r); err != nil {
				return err
			}
		}
		if err := r.dev.wake(); err != nil {
			return err
		}
		start := time.Now()
		if err := d.run(r); err != nil {
			return err
		}
		if err := r.dev.spanEnd(); err != nil {
			return err
		}
		if err := r.sync(); err != nil {
			return err
		}
		r.elapsed = time.Since(start)
		span, err := r.dev.spanTime()
		if err != nil {
			return err
		}
		if r.collect != nil {
			runErr = r.collect()
		}
		res.Finish(r.elapsed)
		res.Summary.DeviceTime = span
		return nil
	})
	if err == nil {
		err = runErr
	}
	if err != nil {
		if isSticky(err) {
			e.broken = err
		}
		return nil, err
	}
	return res, nil
}

// Close frees every cached graph.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dev.do(func() error {
		for g, dg := range e.graphs {
			dg.free()
			delete(e.graphs, g)
		}
		e.order = nil
		e.pool.drain()
		return nil
	})
}

// CopyBandwidth measures the device's copy bandwidth: a device-to-device copy of bytes,
// timed with events (median of reps), counting bytes read plus bytes written, in bytes per
// second. It is the ceiling the benchmarks compare their bytes moved against (METHOD.md).
func (e *Engine) CopyBandwidth(bytes int64, reps int) (float64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var bw float64
	err := e.dev.do(func() error {
		if err := e.ensureFree(2*bytes, "the bandwidth test"); err != nil {
			return err
		}
		a, err := alloc(bytes)
		if err != nil {
			return err
		}
		defer a.free()
		b, err := alloc(bytes)
		if err != nil {
			return err
		}
		defer b.free()
		if err := memset8(a, 1, bytes); err != nil {
			return err
		}
		ev0, err := e.dev.event(0)
		if err != nil {
			return err
		}
		ev1, err := e.dev.event(1)
		if err != nil {
			return err
		}
		var times []float64
		for i := 0; i < reps+1; i++ {
			if err := ev0.Record(cu.Stream{}); err != nil {
				return check("cuEventRecord", err)
			}
			if err := copyBuf(b, a, bytes); err != nil {
				return err
			}
			if err := ev1.Record(cu.Stream{}); err != nil {
				return check("cuEventRecord", err)
			}
			if err := check("cuEventSynchronize", ev1.Synchronize()); err != nil {
				return err
			}
			ms, err := ev0.Elapsed(ev1)
			if err != nil {
				return check("cuEventElapsedTime", err)
			}
			if i > 0 {
				times = append(times, ms)
			}
		}
		sort.Float64s(times)
		bw = 2 * float64(bytes) / (times[len(times)/2] / 1e3)
		return nil
	})
	return bw, err
}
