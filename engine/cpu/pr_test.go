package cpu_test

import (
	"fmt"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/engine/enginetest"
)

// TestPRGaussSeidel checks the Gauss-Seidel sweep against engine/ref on undirected graphs (the
// lean sweep: isolated vertices, several components, a graph of isolated vertices only) and
// directed ones, under each split: owned blocks (split=blocked, and auto on the road and grid
// graphs) in pieces of 16 vertices, so that a block is many pieces and idle workers take
// others', dynamic and cyclic. The ranks must also sum to 1, and split=auto must choose the
// blocks on a local graph (a road network) and dynamic pieces on a kron graph. The lean sweep
// runs with one sum a vertex and with four (gsFourSums, chosen by processor), in its assembly
// loop (amd64) and in its Go loop.
func TestPRGaussSeidel(t *testing.T) {
	for _, asm := range []bool{true, false} {
		for _, four := range []bool{false, true} {
			t.Run(fmt.Sprintf("asm=%v/four=%v", asm, four), func(t *testing.T) {
				if !asm {
					defer cpu.SetGSAsm(false)()
				}
				defer cpu.SetGSFourSums(four)()
				prGaussSeidel(t)
			})
		}
	}
}

func prGaussSeidel(t *testing.T) {
	defer cpu.SetGSChunk(16)()
	p := enginetest.Params(engine.PR)
	kron, _, err := enginetest.Build(enginetest.Spec{Kind: "kron", Scale: 11, Degree: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	inputs := append(moreGraphs(t), moreGraph{"kron11", kron})
	for _, in := range inputs {
		want, err := moreRun(t, "ref", in.g, engine.PR, p, "")
		if err != nil {
			t.Fatalf("%s ref: %v", in.name, err)
		}
		for _, sched := range []string{"", "workers=3", "workers=4 split=blocked", "workers=1", "workers=3 split=dynamic", "workers=2 split=cyclic chunk=5", "workers=5 chunk=7", "workers=5 split=blocked"} {
			got, err := moreRun(t, "cpu", in.g, engine.PR, p, sched)
			if err != nil {
				t.Errorf("%s [%s]: %v", in.name, sched, err)
				continue
			}
			if err := engine.Verify(in.g, got, want); err != nil {
				t.Errorf("%s [%s]: %v", in.name, sched, err)
			}
			if d := got.Summary.RankSum - 1; d > 1e-6 || d < -1e-6 {
				t.Errorf("%s [%s]: rank sum %v", in.name, sched, got.Summary.RankSum)
			}
			if want, ok := map[string]engine.Split{"road": engine.Blocked, "kron11": engine.Dynamic}[in.name]; ok && sched == "" && got.Schedule.Split != want {
				t.Errorf("%s: split=auto resolved to %s, want %s", in.name, got.Schedule.Split, want)
			}
		}
	}
}

// TestGSPieces checks the Gauss-Seidel sweep's pieces (gsClaim): they cover the range in
// order, each of chunk vertices at most and at least chunk/16 (or what is left), and they
// shrink toward the range's end.
func TestGSPieces(t *testing.T) {
	for _, c := range []struct{ lo, end, chunk, parts int64 }{
		{0, 1 << 20, 4096, 32}, {0, 95_000, 4096, 4}, {100, 117, 16, 4}, {0, 1, 4096, 32}, {5, 5, 16, 2}, {0, 1000, 8, 64},
	} {
		ps := cpu.GSPieces(c.lo, c.end, c.chunk, c.parts)
		at := c.lo
		for i, p := range ps {
			n := p[1] - p[0]
			if p[0] != at || n <= 0 || n > c.chunk || n < min(max(c.chunk/16, 1), c.end-at) {
				t.Fatalf("%+v: piece %d is %v after %d", c, i, p, at)
			}
			at = p[1]
		}
		if at != c.end && c.end > c.lo {
			t.Fatalf("%+v: pieces end at %d", c, at)
		}
		if last := len(ps) - 1; c.end-c.lo > 4*c.chunk*c.parts && ps[last][1]-ps[last][0] >= c.chunk {
			t.Errorf("%+v: the last piece %v is not shorter than a chunk", c, ps[last])
		}
	}
}

// TestPRLongPieces runs the lean sweep with pieces of a whole kron graph of 8,192 vertices
// (chunk=N), which the assembly loop sweeps in several calls (gsAsmMost vertices each), against
// engine/ref.
func TestPRLongPieces(t *testing.T) {
	g, _, err := enginetest.Build(enginetest.Spec{Kind: "kron", Scale: 13, Degree: 8, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	p := enginetest.Params(engine.PR)
	want, err := moreRun(t, "ref", g, engine.PR, p, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, sched := range []string{"workers=1 chunk=1000000", "workers=2 chunk=5000"} {
		got, err := moreRun(t, "cpu", g, engine.PR, p, sched)
		if err != nil {
			t.Fatalf("[%s]: %v", sched, err)
		}
		if err := engine.Verify(g, got, want); err != nil {
			t.Errorf("[%s]: %v", sched, err)
		}
	}
}
