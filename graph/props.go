package graph

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
	"unsafe"
)

// Properties are the facts about a graph that `info` shows and that schedules are chosen from.
type Properties struct {
	Vertices        int
	Arcs            int64
	Edges           int64 // arcs for a directed graph, arcs/2 for an undirected one
	MinDegree       int64 // out-degree
	MaxDegree       int64
	MaxDegreeVertex uint32 // lowest id among the vertices of maximum out-degree
	AvgDegree       float64
	// DegreeHistogram[k] counts vertices whose out-degree d has bits.Len(d) == k, that is
	// bucket 0 holds degree 0, bucket k >= 1 holds degrees in [2^(k-1), 2^k).
	DegreeHistogram []int64
	Isolated        int64 // vertices with neither out- nor in-arcs
	SelfLoops       int64 // self-loops still present
	Diameter        int   // estimated (a lower bound from a few BFS sweeps); -1 for an empty graph
	Bytes           int64 // bytes held by the CSR arrays (not counting a cached transpose)
}

// Properties returns the graph's properties, computed on first call and cached.
func (g *CSR) Properties() Properties {
	g.propsOnce.Do(func() { g.props = computeProperties(g) })
	return g.props
}

// Bytes returns the memory held by the CSR arrays.
func (g *CSR) Bytes() int64 {
	return int64(len(g.Offsets))*8 + int64(len(g.Neighbors))*4 + int64(len(g.Weights))*4
}

// Fingerprint is a short content hash (directedness, offsets, neighbours, weights) that names
// the graph in results and keys device caches.
func (g *CSR) Fingerprint() string {
	g.fpOnce.Do(func() {
		h := sha256.New()
		var hdr [17]byte
		binary.LittleEndian.PutUint64(hdr[0:], uint64(g.NumVertices()))
		binary.LittleEndian.PutUint64(hdr[8:], uint64(g.NumArcs()))
		if g.Directed {
			hdr[16] = 1
		}
		h.Write(hdr[:])
		h.Write(int64Bytes(g.Offsets))
		h.Write(uint32Bytes(g.Neighbors))
		h.Write(int32Bytes(g.Weights))
		g.fingerprint = hex.EncodeToString(h.Sum(nil)[:8])
	})
	return g.fingerprint
}

func int64Bytes(s []int64) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*8)
}

func uint32Bytes(s []uint32) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*4)
}

func int32Bytes(s []int32) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*4)
}

func computeProperties(g *CSR) Properties {
	n := g.NumVertices()
	p := Properties{Vertices: n, Arcs: g.NumArcs(), Edges: g.NumEdges(), Bytes: g.Bytes(), Diameter: -1}
	if n == 0 {
		return p
	}
	p.MinDegree = g.Offsets[1] - g.Offsets[0]
	p.DegreeHistogram = make([]int64, 34)
	hasIn := make([]bool, n)
	for v := 0; v < n; v++ {
		d := g.Offsets[v+1] - g.Offsets[v]
		if d < p.MinDegree {
			p.MinDegree = d
		}
		if d > p.MaxDegree {
			p.MaxDegree, p.MaxDegreeVertex = d, uint32(v)
		}
		p.DegreeHistogram[bits.Len64(uint64(d))]++
		for _, u := range g.Neighbors[g.Offsets[v]:g.Offsets[v+1]] {
			hasIn[u] = true
			if u == uint32(v) {
				p.SelfLoops++
			}
		}
	}
	last := len(p.DegreeHistogram)
	for last > 1 && p.DegreeHistogram[last-1] == 0 {
		last--
	}
	p.DegreeHistogram = p.DegreeHistogram[:last]
	for v := 0; v < n; v++ {
		if !hasIn[v] && g.Offsets[v+1] == g.Offsets[v] {
			p.Isolated++
		}
	}
	p.AvgDegree = float64(p.Arcs) / float64(n)
	p.Diameter = estimateDiameter(g, p.MaxDegreeVertex)
	return p
}

// estimateDiameter runs a few double sweeps: BFS from a start, then from the farthest vertex
// found, keeping the largest eccentricity seen. It is a lower bound, exact on trees and usually
// close on road and mesh graphs. Arcs are followed forward only.
func estimateDiameter(g *CSR, start uint32) int {
	n := g.NumVertices()
	depth := make([]int32, n)
	queue := make([]uint32, 0, n)
	best := 0
	src := start
	for sweep := 0; sweep < 4; sweep++ {
		for i := range depth {
			depth[i] = -1
		}
		queue = append(queue[:0], src)
		depth[src] = 0
		far := src
		for h := 0; h < len(queue); h++ {
			v := queue[h]
			for _, u := range g.Neighbors[g.Offsets[v]:g.Offsets[v+1]] {
				if depth[u] < 0 {
					depth[u] = depth[v] + 1
					queue = append(queue, u)
					far = u
				}
			}
		}
		if int(depth[far]) > best {
			best = int(depth[far])
		} else if sweep > 0 {
			break
		}
		src = far
	}
	return best
}
