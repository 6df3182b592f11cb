package graph

import (
	"fmt"
	"sort"
	"strconv"
)

// IDs maps the dense vertex ids the engines use (0..V-1) to the ids the graph's file gave its
// vertices, and back: a person types and reads the file's ids (src=, info, traces, exports),
// the engines never see them. The zero value is the identity.
//
// A file with contiguous ids (0-based, 1-based, or starting anywhere) needs only Base; a file
// with sparse ids (a SNAP edge list whose ids skip numbers) is compacted by the loader, keeping
// the order, and Labels lists the file's id of every vertex, ascending, so that looking an id
// up is a binary search.
type IDs struct {
	Base   uint32   // when Labels is nil, vertex v has the id v+Base
	Labels []uint32 // nil, or len V and strictly ascending: vertex v has the id Labels[v]
}

// Identity reports whether every vertex's id is its dense id.
func (m IDs) Identity() bool { return m.Labels == nil && m.Base == 0 }

// ID returns the file's id of vertex v.
func (m IDs) ID(v uint32) uint64 {
	if m.Labels != nil {
		return uint64(m.Labels[v])
	}
	return uint64(v) + uint64(m.Base)
}

// Vertex returns the vertex whose file id is id, on a graph of n vertices.
func (m IDs) Vertex(id uint64, n int) (uint32, bool) {
	if m.Labels != nil {
		i := sort.Search(len(m.Labels), func(i int) bool { return uint64(m.Labels[i]) >= id })
		return uint32(i), i < len(m.Labels) && uint64(m.Labels[i]) == id
	}
	if id < uint64(m.Base) || id-uint64(m.Base) >= uint64(n) {
		return 0, false
	}
	return uint32(id - uint64(m.Base)), true
}

// Range says which ids the vertices of a graph of n vertices have, for messages:
// "1..3353", or "3..8297 with gaps (7,115 ids)" when they are sparse.
func (m IDs) Range(n int) string {
	if n == 0 {
		return "none"
	}
	if m.Labels != nil {
		return fmt.Sprintf("%d..%d with gaps (%s ids)", m.Labels[0], m.Labels[n-1], commas(int64(n)))
	}
	return fmt.Sprintf("%d..%d", m.Base, uint64(m.Base)+uint64(n)-1)
}

// Text formats vertex v's id.
func (m IDs) Text(v uint32) string { return strconv.FormatUint(m.ID(v), 10) }

func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
