package graph

// UnionFind is a disjoint-set forest over the vertices 0..n-1 (Tarjan), with path halving.
// Union hangs the larger root under the smaller, so the root of a set is its smallest member
// and Find labels components by their smallest vertex id. Not safe for concurrent use.
type UnionFind []uint32

// NewUnionFind returns n singleton sets.
func NewUnionFind(n int) UnionFind {
	u := make(UnionFind, n)
	for i := range u {
		u[i] = uint32(i)
	}
	return u
}

// Find returns the root of x's set, halving the path it walks.
func (u UnionFind) Find(x uint32) uint32 {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

// Union merges the sets of a and b and reports whether they were apart.
func (u UnionFind) Union(a, b uint32) bool {
	ra, rb := u.Find(a), u.Find(b)
	switch {
	case ra < rb:
		u[rb] = ra
	case rb < ra:
		u[ra] = rb
	default:
		return false
	}
	return true
}
