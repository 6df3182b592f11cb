//go:build cuda

package gpu

import (
	"fmt"

	"gorgonia.org/cu"

	"github.com/gworkbench/gworkbench/graph"
)

// The graphs' device copies: the out-CSR uploaded on first use and cached by the engine
// (least recently used evicted first), the transpose and edge rows when a run needs them.

// csrDev is one CSR on the device.
type csrDev struct {
	off, nbr, wt, row buffer
	off32             buffer // the offsets in 32 bits, built on first use (offsets32)
	n                 int
	m                 int64
}

// devGraph is a graph's device copy: the out-CSR, and the in-CSR and edge rows when a run
// needed them. Cached by the engine, keyed by the graph.
type devGraph struct {
	g       *graph.CSR
	minW    *int32 // smallest weight, found on first use
	out     csrDev
	in      *csrDev // == &out for an undirected graph
	inOwned bool
	blocked *blockedCSR  // PageRank blocking=N: the in-edges cut into segments (blocking.go)
	dpb     *dpbLayout   // PageRank method=dpb: the staged bins (pr_dpb.go)
	async   *asyncLayout // BFS and SSSP method=async: the relabeled ranges (async.go)
	dangN   *int64       // vertices without out-edges, counted on first use (PageRank)
	tcRank  buffer       // TC relabel=on: each vertex's rank by (degree, id), built on first use (prepareTC)
}

// dangling returns the number of vertices without out-edges, counted once per graph.
func (dg *devGraph) dangling() int64 {
	if dg.dangN == nil {
		off := dg.g.Offsets
		k := int64(0)
		for v := 0; v+1 < len(off); v++ {
			if off[v+1] == off[v] {
				k++
			}
		}
		dg.dangN = &k
	}
	return *dg.dangN
}

// minWeight returns the graph's smallest weight (0 for an unweighted graph), computed once.
func (dg *devGraph) minWeight() int32 {
	if dg.minW == nil {
		m := int32(0)
		for _, w := range dg.g.Weights {
			m = min(m, w)
		}
		dg.minW = &m
	}
	return *dg.minW
}

func (c *csrDev) free() {
	c.off.free()
	c.nbr.free()
	c.wt.free()
	c.row.free()
	c.off32.free()
}

func (c *csrDev) bytes() int64 {
	return c.off.bytes + c.nbr.bytes + c.wt.bytes + c.row.bytes + c.off32.bytes
}

func (dg *devGraph) free() {
	dg.out.free()
	if dg.inOwned && dg.in != nil {
		dg.in.free()
	}
	if dg.blocked != nil {
		dg.blocked.free()
	}
	if dg.dpb != nil {
		dg.dpb.free()
	}
	if dg.async != nil {
		dg.async.free()
	}
	dg.tcRank.free()
}

func (dg *devGraph) bytes() int64 {
	b := dg.out.bytes()
	if dg.inOwned && dg.in != nil {
		b += dg.in.bytes()
	}
	if dg.blocked != nil {
		b += dg.blocked.bytes()
	}
	if dg.dpb != nil {
		b += dg.dpb.bytes()
	}
	if dg.async != nil {
		b += dg.async.bytes()
	}
	return b + dg.tcRank.bytes
}

// graph returns g's device copy, uploading it when it is not cached. Before uploading it
// checks free device memory against the graph plus what the run needs, evicting other cached
// graphs first; it refuses with both numbers when that is not enough.
func (e *Engine) graph(g *graph.CSR, runBytes int64) (*devGraph, error) {
	if dg, ok := e.graphs[g]; ok {
		e.touch(g)
		return dg, nil
	}
	need := g.Bytes() + runBytes
	if err := e.ensureFree(need, fmt.Sprintf("the graph (%d vertices, %d arcs) and this run", g.NumVertices(), g.NumArcs())); err != nil {
		return nil, err
	}
	dg := &devGraph{g: g}
	var err error
	if dg.out, err = uploadCSR(g); err != nil {
		dg.free()
		return nil, err
	}
	if !g.Directed {
		dg.in = &dg.out
	}
	e.graphs[g] = dg
	e.touch(g)
	return dg, nil
}

func (e *Engine) touch(g *graph.CSR) {
	for i, x := range e.order {
		if x == g {
			e.order = append(e.order[:i], e.order[i+1:]...)
			break
		}
	}
	e.order = append(e.order, g)
}

// ensureFree makes need bytes free on the device, evicting cached graphs least recently used
// first, or says how much is needed and how much is free.
func (e *Engine) ensureFree(need int64, what string) error {
	for {
		free, _, err := cu.MemInfo()
		if err != nil {
			return check("cuMemGetInfo", err)
		}
		if need <= free {
			return nil
		}
		if e.pool.bytes > 0 {
			e.pool.drain()
			continue
		}
		if len(e.order) <= 1 {
			return fmt.Errorf("gpu: %s need %d MiB of device memory and %d MiB are free", what, need>>20, free>>20)
		}
		old := e.order[0]
		e.order = e.order[1:]
		e.graphs[old].free()
		delete(e.graphs, old)
	}
}

func uploadCSR(g *graph.CSR) (csrDev, error) {
	c := csrDev{n: g.NumVertices(), m: g.NumArcs()}
	var err error
	if c.off, err = upload(g.Offsets); err != nil {
		return c, err
	}
	if c.nbr, err = upload(g.Neighbors); err != nil {
		return c, err
	}
	if g.Weights != nil {
		if c.wt, err = upload(g.Weights); err != nil {
			return c, err
		}
	}
	return c, nil
}

// inCSR returns the in-edges on the device, uploading the transpose on first use.
func (r *run) inCSR() (*csrDev, error) {
	if r.dg.in != nil {
		return r.dg.in, nil
	}
	t := r.g.Transpose()
	if err := r.eng.ensureFree(t.Bytes()+r.estimate(), "the graph's transpose and this run"); err != nil {
		return nil, err
	}
	c, err := uploadCSR(t)
	if err != nil {
		c.free()
		return nil, err
	}
	r.dg.in, r.dg.inOwned = &c, true
	return r.dg.in, nil
}

// narrow says whether the ECL kernels take the run's graph's offsets in 32 bits (offsets32):
// fewer than 2^32 arcs, and vertex ids that a 32-bit loop counter passes without wrapping
// (unless the tests ask for the 64-bit kernels, Engine.wide).
func (r *run) narrow() bool {
	return !r.eng.wide && r.g.NumArcs() < 1<<32 && r.g.NumVertices() < 1<<31
}

// offsets32 uploads c's offsets in 32 bits on first use (the CSR of g, c's graph), once per
// graph and outside the timing, as the graph's upload: the ECL kernels read half the offset
// bytes and hold fewer registers. The caller checks narrow(g).
func (r *run) offsets32(c *csrDev, g *graph.CSR) error {
	if c.off32.ptr != 0 {
		return nil
	}
	if err := r.eng.ensureFree(int64(len(g.Offsets))*4+r.estimate(), "the 32-bit offsets and this run"); err != nil {
		return err
	}
	o := make([]uint32, len(g.Offsets))
	for i, x := range g.Offsets {
		o[i] = uint32(x)
	}
	var err error
	c.off32, err = upload(o)
	return err
}

// rows fills c's edge-row array (lb=coo) on first use.
func (r *run) rows(c *csrDev) error {
	if c.row.ptr != 0 || c.m == 0 {
		return nil
	}
	if err := r.eng.ensureFree(c.m*4+r.estimate(), "the edge list (lb=coo) and this run"); err != nil {
		return err
	}
	var err error
	if c.row, err = alloc(c.m * 4); err != nil {
		return err
	}
	a := r.args(c)
	a.row = c.row.addr()
	return r.launch("util_coo_rows", blocks(c.m, block), &a)
}
