package graph

import "testing"

// TestAdviseHuge checks that advice keeps a fresh slice's contents (zeros) and its writes,
// whatever the alignment and size, including slices too small to advise.
func TestAdviseHuge(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1 << 19, 3<<20 + 17} {
		s := make([]int32, n)
		AdviseHuge(s)
		for i, x := range s {
			if x != 0 {
				t.Fatalf("n=%d: s[%d] = %d after AdviseHuge, want 0", n, i, x)
			}
		}
		for i := range s {
			s[i] = int32(i)
		}
		for i, x := range s {
			if x != int32(i) {
				t.Fatalf("n=%d: s[%d] = %d, want %d", n, i, x, i)
			}
		}
	}
}
