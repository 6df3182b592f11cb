package cpu_test

import (
	"errors"
	"testing"

	"github.com/gworkbench/gworkbench/engine"
)

func TestMST(t *testing.T) {
	scheds := []string{"driven=data workers=2", "driven=topology workers=2", "workers=1", "split=cyclic chunk=3 workers=2", "split=blocked workers=2"}
	moreCheck(t, engine.MST, engine.DefaultParams(), scheds)
}

func TestMSTKnownWeight(t *testing.T) {
	for _, in := range moreGraphs(t) {
		if in.name != "cliques-directed=false" {
			continue
		}
		got, err := moreRun(t, "cpu", in.g, engine.MST, engine.DefaultParams(), "")
		if err != nil {
			t.Fatal(err)
		}
		// K5 with w(i,j)=i+j: 1+2+3+4 = 10; K5 of 3s: 12; path 7+2; two triangles 1+1 and 5+5.
		if want := int64(10 + 12 + 9 + 2 + 10); got.Summary.TotalWeight != want {
			t.Errorf("%s: got weight %d, want %d", in.name, got.Summary.TotalWeight, want)
		}
		if want := int64(24 - 17 + 3); got.Summary.Components != want { // 17 vertices in 3 trees, 7 isolated
			t.Errorf("%s: got %d trees, want %d", in.name, got.Summary.Components, want)
		}
	}
}

// TestMSTECL checks method=ecl (an edge worklist, mst_ecl.go) against engine/ref on the
// undirected graphs, with uneven worker counts, and that a directed graph is refused.
func TestMSTECL(t *testing.T) {
	ref := 0
	for _, in := range moreGraphs(t) {
		if in.g.Directed {
			_, err := moreRun(t, "cpu", in.g, engine.MST, engine.DefaultParams(), "method=ecl")
			if !errors.Is(err, engine.ErrUnsupported) {
				t.Errorf("%s method=ecl: got %v, want ErrUnsupported", in.name, err)
			}
			continue
		}
		want, err := moreRun(t, "ref", in.g, engine.MST, engine.DefaultParams(), "")
		if err != nil {
			t.Fatalf("%s ref: %v", in.name, err)
		}
		ref++
		for _, sched := range []string{"method=ecl workers=1", "method=ecl workers=2", "method=ecl workers=3 chunk=1"} {
			got, err := moreRun(t, "cpu", in.g, engine.MST, engine.DefaultParams(), sched)
			if err != nil {
				t.Errorf("%s [%s]: %v", in.name, sched, err)
				continue
			}
			if err := engine.Verify(in.g, got, want); err != nil {
				t.Errorf("%s [%s]: %v", in.name, sched, err)
			}
			if len(got.Trace.Records) < 2 {
				t.Errorf("%s [%s]: %d trace records, want the phase and a round at least", in.name, sched, len(got.Trace.Records))
			}
		}
	}
	if ref == 0 {
		t.Fatal("no undirected graph to check")
	}
}
