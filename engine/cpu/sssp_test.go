package cpu_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/engine/enginetest"
	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/loader"
)

// TestSSSPHubs runs delta-stepping on graphs with vertices of cpu.SSSPHubArcs arcs or more,
// whose arcs the workers share after each round (relaxHubs), against the reference: a kron
// graph (hubs popped in the first buckets, among others), a directed one, and stars whose
// centre is reached late, through a path, so that it is popped from a fused bin; with
// pieces of every size, and with delta 1 (a hub's improvements fall back into its bucket).
func TestSSSPHubs(t *testing.T) {
	kron := func(directed bool) *graph.CSR {
		g, _, err := enginetest.Build(enginetest.Spec{Kind: "kron", Scale: 14, Degree: 16, Directed: directed, Weights: "uniform:1:255", Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, c := range []struct {
		name string
		g    *graph.CSR
		src  int64 // engine.SrcAuto: the vertex of highest degree, a hub
	}{
		{"kron14", kron(false), engine.SrcAuto},
		{"kron14 directed", kron(true), engine.SrcAuto},
		{"late stars", lateStar(3*cpu.SSSPHubArcs, 40, false), 0},
		{"late stars directed", lateStar(cpu.SSSPHubArcs+1, 7, true), 0},
	} {
		maxDeg := int64(0)
		for u := range c.g.NumVertices() {
			maxDeg = max(maxDeg, c.g.Offsets[u+1]-c.g.Offsets[u])
		}
		if maxDeg < cpu.SSSPHubArcs {
			t.Fatalf("%s: largest degree %d, under the %d arcs of a hub", c.name, maxDeg, cpu.SSSPHubArcs)
		}
		p := engine.DefaultParams()
		p.Src = c.src
		want, err := moreRun(t, "ref", c.g, engine.SSSP, p, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, sched := range []string{"workers=2", "workers=4 chunk=64", "workers=3 chunk=1", "workers=2 delta=1", "workers=4 delta=100000"} {
			got, err := moreRun(t, "cpu", c.g, engine.SSSP, p, sched)
			if err != nil {
				t.Fatalf("%s [%s]: %v", c.name, sched, err)
			}
			if err := engine.Verify(c.g, got, want); err != nil {
				t.Errorf("%s [%s]: %v", c.name, sched, err)
			}
		}
	}
}

// lateStar is a path 0 .. hops with a star on every tenth vertex of it: each centre has arms
// leaves of its own, joined in a chain, weights varying so that leaves improve more than once.
func lateStar(arms, hops int, directed bool) *graph.CSR {
	var edges []loader.Edge
	for i := 0; i < hops; i++ {
		edges = append(edges, loader.Edge{U: uint32(i), V: uint32(i + 1), W: int32(1 + i%5)})
	}
	n := hops + 1
	for c := 0; c <= hops; c += 10 {
		for a := 0; a < arms; a++ {
			leaf := uint32(n)
			n++
			edges = append(edges, loader.Edge{U: uint32(c), V: leaf, W: int32(1 + (a*7)%255)})
			if a > 0 {
				edges = append(edges, loader.Edge{U: leaf - 1, V: leaf, W: int32(1 + a%3)})
			}
		}
	}
	return enginetest.FromEdges(n, edges, directed, true)
}

// TestSSSPRegion runs delta-stepping's parallel region (sssp_delta_region.go) against the
// reference on the small graphs of moreGraphs (kron, urand, directed kron, grid, road,
// cliques, none and single vertices) and on farPath, whose buckets lie far beyond a ring
// (refill phases): more workers than this machine's processors (barrier waiters that park),
// pieces of one vertex, every split, delta 1 and huge, dedup=atomic, and sync=sync (the
// caller's rounds) beside it.
func TestSSSPRegion(t *testing.T) {
	scheds := []string{"workers=16", "workers=3 chunk=1", "workers=4 split=blocked",
		"workers=5 split=cyclic chunk=3", "workers=2 delta=1", "workers=4 delta=1000000",
		"workers=4 dedup=atomic chunk=1", "workers=3 sync=sync", "workers=1"}
	moreCheck(t, engine.SSSP, engine.DefaultParams(), scheds)
	for _, directed := range []bool{false, true} {
		g := farPath(60, directed)
		p := engine.DefaultParams()
		p.Src = 0
		want, err := moreRun(t, "ref", g, engine.SSSP, p, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, sched := range append(scheds, "workers=4 delta=1 chunk=1", "workers=2 delta=3") {
			got, err := moreRun(t, "cpu", g, engine.SSSP, p, sched)
			if err != nil {
				t.Fatalf("far path directed=%v [%s]: %v", directed, sched, err)
			}
			if err := engine.Verify(g, got, want); err != nil {
				t.Errorf("far path directed=%v [%s]: %v", directed, sched, err)
			}
		}
	}
}

// farPath is a path 0 .. n-1 whose arcs weigh 1 and 150,000 in turn, with two leaves on every
// vertex (weights 2 and 150,001) and a shortcut every seventh vertex: with a small delta most
// buckets lie more than maxRing buckets ahead of the current one (a ring's far list).
func farPath(n int, directed bool) *graph.CSR {
	var edges []loader.Edge
	for i := 0; i+1 < n; i++ {
		w := int32(1)
		if i%2 == 1 {
			w = 150_000
		}
		edges = append(edges, loader.Edge{U: uint32(i), V: uint32(i + 1), W: w})
		if i%7 == 0 && i+3 < n {
			edges = append(edges, loader.Edge{U: uint32(i), V: uint32(i + 3), W: 150_002})
		}
	}
	v := n
	for i := 0; i < n; i++ {
		edges = append(edges, loader.Edge{U: uint32(i), V: uint32(v), W: 2}, loader.Edge{U: uint32(i), V: uint32(v + 1), W: 150_001})
		v += 2
	}
	return enginetest.FromEdges(v, edges, directed, true)
}

// TestBucketDiv checks delta-stepping's division by a multiply and a shift against the
// division, for deltas from 1 to past 2^31 and distances around each multiple of delta, at
// the top of the range and at random.
func TestBucketDiv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int64{1, 2, 3, 4, 5, 7, 8, 50, 255, 1000, 1024, 1027, 4124, 65535, 65537, 1<<20 + 1, 1 << 30, 1<<31 - 1, 1 << 31, 1 << 40} {
		ns := []int64{0, 1, 1<<31 - 1, 1<<31 - 2, 1<<31 - 3}
		for _, k := range []int64{1, 2, 3, 1000, (1<<31 - 1) / d} {
			if m := k * d; m < 1<<31 {
				ns = append(ns, m-1, m, min(m+1, 1<<31-1))
			}
		}
		for range 20000 {
			ns = append(ns, rng.Int64N(1<<31))
		}
		for _, n := range ns {
			if got, want := cpu.BucketOf(d, n), n/d; got != want {
				t.Fatalf("delta %d, distance %d: bucket %d, want %d", d, n, got, want)
			}
		}
	}
}

// TestRelaxKernelLayout checks that the assembly's offsets of relaxKernel's fields (its K_
// constants) are the Go struct's.
func TestRelaxKernelLayout(t *testing.T) {
	src, err := os.ReadFile("sssp_kernel_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	fields := cpu.RelaxKernelOffsets()
	seen := 0
	for _, line := range strings.Split(string(src), "\n") {
		var name string
		var off uintptr
		if n, _ := fmt.Sscanf(line, "#define K_%s %d", &name, &off); n != 2 {
			continue
		}
		seen++
		if got, ok := fields[name]; !ok || got != off {
			t.Errorf("K_%s is %d in the assembly, the field's offset is %d (present: %v)", name, off, got, ok)
		}
	}
	if seen != len(fields) {
		t.Errorf("the assembly defines %d offsets, relaxKernel has %d fields", seen, len(fields))
	}
	if !strings.Contains(string(src), fmt.Sprintf("#define MOST %d\n", cpu.RelaxAsmMost)) {
		t.Errorf("the assembly's MOST is not relaxAsmMost (%d)", cpu.RelaxAsmMost)
	}
}

// TestSSSPKernel runs delta-stepping with the relaxation in Go and in assembly (where this
// machine has it) against the reference: the small graphs of moreGraphs, farPath (buckets
// beyond the ring: appends the assembly leaves to Go), stars with hubs (the hub phase's arcs),
// a broom whose pieces exceed what the assembly relaxes a call,
// weights that saturate a distance, and a negative weight on a short list, a long one and a
// hub's, which must fail the run.
func TestSSSPKernel(t *testing.T) {
	for _, asm := range []bool{false, true} {
		restore := cpu.SetRelaxAsm(asm)
		scheds := []string{"workers=1", "workers=3 chunk=1", "workers=4 delta=1", "workers=2 delta=1000000",
			"workers=2 chunk=100000 delta=1000000"}
		moreCheck(t, engine.SSSP, engine.DefaultParams(), scheds)
		for _, g := range []*graph.CSR{farPath(40, false), lateStar(cpu.SSSPHubArcs+5, 12, false), broom(3 * cpu.RelaxAsmMost)} {
			p := engine.DefaultParams()
			p.Src = 0
			want, err := moreRun(t, "ref", g, engine.SSSP, p, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, sched := range scheds {
				got, err := moreRun(t, "cpu", g, engine.SSSP, p, sched)
				if err == nil {
					err = engine.Verify(g, got, want)
				}
				if err != nil {
					t.Errorf("asm=%v [%s]: %v", asm, sched, err)
				}
			}
		}
		enginetest.DistOverflow(t, "cpu")
		for _, arms := range []int{3, 20, cpu.SSSPHubArcs + 1} {
			g := negStar(arms)
			p := engine.DefaultParams()
			p.Src = 0
			for _, sched := range []string{"workers=1", "workers=2"} {
				if _, err := moreRun(t, "cpu", g, engine.SSSP, p, sched); err == nil || !strings.Contains(err.Error(), "negative") {
					t.Errorf("asm=%v, a negative weight among %d arcs [%s]: got %v, want the negative weight's error", asm, arms, sched, err)
				}
			}
		}
		restore()
	}
}

// broom is a star of centre 0 with n leaves, each leaf the start of a path of two more
// vertices: under a huge delta and a huge chunk a worker's piece holds more than relaxAsmMost
// popped vertices (a layer of the paths).
func broom(n int) *graph.CSR {
	var edges []loader.Edge
	for i := 1; i <= n; i++ {
		edges = append(edges, loader.Edge{U: 0, V: uint32(i), W: int32(1 + i%7)},
			loader.Edge{U: uint32(i), V: uint32(n + i), W: int32(1 + i%5)},
			loader.Edge{U: uint32(n + i), V: uint32(2*n + i), W: int32(1 + i%3)})
	}
	return enginetest.FromEdges(3*n+1, edges, false, true)
}

// negStar is a star of centre 1, reached from 0, whose last arm weighs -1.
func negStar(arms int) *graph.CSR {
	edges := []loader.Edge{{U: 0, V: 1, W: 4}}
	for a := 0; a < arms; a++ {
		w := int32(1 + a%9)
		if a == arms-1 {
			w = -1
		}
		edges = append(edges, loader.Edge{U: 1, V: uint32(2 + a), W: w})
	}
	return enginetest.FromEdges(arms+2, edges, true, true)
}
