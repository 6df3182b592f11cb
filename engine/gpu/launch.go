//go:build cuda

package gpu

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/engine"
)

// Kernel launches: every launch of a host-driven step is bracketed by a pair of timing events
// (timedKernel), read when the step's record is emitted (run.kernels); the cooperative launches
// of the fused loops are timed alike (timed) and read at once (fused.go, fused_sweeps.go).

// blocks is the grid that gives items items per of them a block, within 1 and maxGrid.
func blocks(items int64, per int) int {
	g := (items + int64(per) - 1) / int64(per)
	if g < 1 {
		g = 1
	}
	if g > maxGrid {
		g = maxGrid
	}
	return int(g)
}

// launch starts kernel name with grid blocks, bracketed by timing events.
func (r *run) launch(name string, grid int, a *kargs) error {
	fn, err := r.dev.fn(name)
	if err != nil {
		return err
	}
	if grid < 1 {
		grid = 1
	}
	if grid > maxGrid {
		grid = maxGrid
	}
	return r.timedKernel(name, grid, block, func() error {
		if err := launch(fn, grid, block, unsafe.Pointer(a), false); err != nil {
			return fmt.Errorf("%w (kernel %s, grid %d x %d)", err, name, grid, block)
		}
		return nil
	})
}

// timed runs start, one kernel launch, between the run's next pair of timing events and
// returns the pair (a fused launch reads its time from them at once).
func (r *run) timed(start func() error) (ev0, ev1 cu.Event, err error) {
	if ev0, err = r.dev.event(r.nextEvent); err != nil {
		return
	}
	if ev1, err = r.dev.event(r.nextEvent + 1); err != nil {
		return
	}
	if err = markStart(); err != nil { // the run's start mark before the kernel's own
		return
	}
	if err = ev0.Record(cu.Stream{}); err != nil {
		return ev0, ev1, check("cuEventRecord", err)
	}
	if err = start(); err != nil {
		return
	}
	if err = ev1.Record(cu.Stream{}); err != nil {
		return ev0, ev1, check("cuEventRecord", err)
	}
	return
}

// timedKernel is timed for a kernel of a host-driven step: its pair of events is kept, with
// the kernel's name and shape, until the step's record reads the times (pending).
func (r *run) timedKernel(name string, grid, block int, start func() error) error {
	if _, _, err := r.timed(start); err != nil {
		return err
	}
	r.pending = append(r.pending, pendingKernel{name: name, grid: grid, block: block, ev: r.nextEvent})
	r.nextEvent += 2
	return nil
}

// launchStruct launches kernel name with a copy of the argument struct *a (run.launchStruct,
// typed): the copy is an allocation of its own that holds no Go pointer, as cgo requires, where
// *a may sit inside a struct that holds some.
func launchStruct[T any](r *run, name string, grid int, a *T) error {
	c := *a
	return r.launchStruct(name, grid, unsafe.Pointer(&c))
}

// launchCoopStruct launches kernel name cooperatively (every block resident, so that it may
// wait at grid-wide barriers) with a copy of *a, timed with events, and returns its grid.
func launchCoopStruct[T any](r *run, name string, a *T) (int, error) {
	return launchCoopStructMax(r, name, 0, a)
}

// launchCoopStructMax is launchCoopStruct with at most maxBlocks blocks when maxBlocks > 0 (a
// smaller grid meets at its barriers sooner).
func launchCoopStructMax[T any](r *run, name string, maxBlocks int, a *T) (int, error) {
	fn, grid, err := r.coopGrid(name, 0)
	if err != nil {
		return 0, err
	}
	if maxBlocks > 0 {
		grid = min(grid, maxBlocks)
	}
	c := *a
	return grid, r.timedKernel(name, grid, block, func() error {
		if err := launch(fn, grid, block, unsafe.Pointer(&c), true); err != nil {
			return fmt.Errorf("%w (kernel %s, cooperative grid %d x %d)", err, name, grid, block)
		}
		return nil
	})
}

// launchStruct is run.launch for the kernels whose parameter is their own argument struct
// (tc, bc, mis, mst): kernel name with grid blocks of 256 threads, timed with events.
func (r *run) launchStruct(name string, grid int, args unsafe.Pointer) error {
	fn, err := r.dev.fn(name)
	if err != nil {
		return err
	}
	grid = min(max(grid, 1), maxGrid)
	return r.timedKernel(name, grid, block, func() error {
		if err := launch(fn, grid, block, args, false); err != nil {
			return fmt.Errorf("%w (kernel %s, grid %d x %d)", err, name, grid, block)
		}
		return nil
	})
}

// launchShared starts a staged tiled sweep with its shape's block size and shared memory,
// bracketed by timing events as run.launch.
func (r *run) launchShared(name string, sh tiledShape, a *kargs) error {
	fn, err := r.dev.fn(name)
	if err != nil {
		return err
	}
	return r.timedKernel(name, sh.grid, sh.threads, func() error {
		if err := launchShared(fn, sh.grid, sh.threads, sh.shmem, unsafe.Pointer(a), false); err != nil {
			return fmt.Errorf("%w (kernel %s, grid %d x %d, %d bytes of shared memory)", err, name, sh.grid, sh.threads, sh.shmem)
		}
		return nil
	})
}

// lbGrid is the grid of an all-vertex sweep under load balancer lb: a thread, a warp or a
// block per row, or a thread per edge.
func lbGrid(lb engine.LoadBalance, rows, edges int64) int {
	switch lb {
	case engine.LBWarp:
		return blocks(rows, block/32)
	case engine.LBCTA:
		return blocks(rows, 1)
	case engine.LBEdge, engine.LBCOO:
		return blocks(edges, block)
	}
	return blocks(rows, block)
}
