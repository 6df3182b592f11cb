package engine

import (
	"strings"
	"testing"
)

// star returns the offsets of a symmetric star plus a clique-free ring: one hub of degree hub
// and ring vertices of degree 2 (+1 for the hub's arc).
func starOffsets(n int, hub int64) []int64 {
	off := make([]int64, n+1)
	off[1] = hub
	for v := 1; v < n; v++ {
		d := int64(2)
		if int64(v) <= hub {
			d++
		}
		off[v+1] = off[v] + d
	}
	return off
}

func TestTCWorthRelabelling(t *testing.T) {
	even := make([]int64, 1001) // every vertex of degree 20: average 10, not skewed
	for v := range even[1:] {
		even[v+1] = even[v] + 20
	}
	for _, c := range []struct {
		name string
		off  []int64
		want bool
		why  string
	}{
		{"empty", []int64{0}, false, "empty graph"},
		{"sparse", starOffsets(100, 50), false, "average degree"},
		{"even", even, false, "not skewed"},
		{"skewed", func() []int64 { // half the vertices of degree 12, a tenth of degree 400
			off := make([]int64, 1001)
			for v := 0; v < 1000; v++ {
				d := int64(12)
				if v%10 == 0 {
					d = 400
				}
				off[v+1] = off[v] + d
			}
			return off
		}(), true, "skewed: sampled"},
	} {
		got, why := TCWorthRelabelling(c.off)
		if got != c.want || !strings.Contains(why, c.why) {
			t.Errorf("%s: got %v %q, want %v and a reason containing %q", c.name, got, why, c.want, c.why)
		}
	}
}
