package engine

import (
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/graph"
)

func TestSamePartition(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want []uint32
		errHas    string
	}{
		{"equal", []uint32{0, 0, 2, 2}, []uint32{0, 0, 2, 2}, ""},
		{"relabelled", []uint32{7, 7, 3, 3, 9}, []uint32{0, 0, 2, 2, 4}, ""},
		{"merged", []uint32{0, 0, 0, 3}, []uint32{0, 0, 2, 3}, "vertex 2: got it in the component of vertex 0"},
		{"split", []uint32{0, 1, 2, 3}, []uint32{0, 0, 2, 3}, "vertex 1: got it apart from vertex 0"},
		{"length", []uint32{0}, []uint32{0, 1}, "sizes differ"},
	} {
		err := SamePartition(tc.got, tc.want)
		if tc.errHas == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.errHas) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.errHas)
		}
	}
}

func TestVerifyMessages(t *testing.T) {
	g := &graph.CSR{Offsets: []int64{0, 0, 0, 0}}
	for _, tc := range []struct {
		name      string
		got, want *Result
		errHas    string
	}{
		{"bfs ok", &Result{Algorithm: BFS, Depth: []int32{0, 1, -1}}, &Result{Algorithm: BFS, Depth: []int32{0, 1, -1}}, ""},
		{"bfs", &Result{Algorithm: BFS, Depth: []int32{0, 2, 3}}, &Result{Algorithm: BFS, Depth: []int32{0, 1, -1}},
			"bfs depth of vertex 1: got 2, want 1 (2 of 3 vertices differ)"},
		{"sssp", &Result{Algorithm: SSSP, Dist: []int32{0, 5, InfDist}}, &Result{Algorithm: SSSP, Dist: []int32{0, 5, 9}},
			"sssp distance of vertex 2: got inf, want 9 (1 of 3 vertices differ)"},
		{"cc", &Result{Algorithm: CC, Comp: []uint32{0, 0, 0}}, &Result{Algorithm: CC, Comp: []uint32{0, 0, 2}}, "cc partitions differ"},
		{"pr ok", &Result{Algorithm: PR, Rank: []float64{0.5, 0.25, 0.25}}, &Result{Algorithm: PR, Rank: []float64{0.5, 0.25 + 4e-5, 0.25 - 4e-5}}, ""},
		{"pr", &Result{Algorithm: PR, Rank: []float64{0.5, 0.3, 0.2}}, &Result{Algorithm: PR, Rank: []float64{0.5, 0.25, 0.25}},
			"pr ranks differ by 0.1 in L1"},
		{"length", &Result{Algorithm: BFS, Depth: []int32{0}}, &Result{Algorithm: BFS, Depth: []int32{0, 1, 2}}, "got 1 values, want 3"},
		{"mixed", &Result{Algorithm: BFS}, &Result{Algorithm: CC}, "comparing a bfs result with a cc result"},
	} {
		err := Verify(g, tc.got, tc.want)
		if tc.errHas == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.errHas) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.errHas)
		}
	}
}
