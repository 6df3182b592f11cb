package graph

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
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
	// What the loader removed (from Origin): self-loops, and duplicate edges (arcs for a
	// directed graph).
	SelfLoopsRemoved  int64
	DuplicatesRemoved int64
	Diameter          int   // estimated (a lower bound from a few BFS sweeps); -1 for an empty graph
	Bytes             int64 // bytes held by the CSR arrays (not counting a cached transpose)
}

// Properties returns the graph's properties, computed on first call and cached.
func (g *CSR) Properties() Properties {
	g.propsOnce.Do(func() { g.props = computeProperties(g); g.propsDone.Store(true) })
	return g.props
}

// HasProperties reports whether Properties has been computed (so calling it now is free).
// Tests use it to check that an engine's timed region never pays for the properties.
func (g *CSR) HasProperties() bool { return g.propsDone.Load() }

// MaxDegreeVertex returns the vertex of highest out-degree, the lowest id among ties (0 for an
// empty graph): the same vertex as Properties().MaxDegreeVertex, from one O(V) scan of Offsets
// computed on first call and cached. It is what src=auto resolves to, so engines call it
// inside their timed region; Properties also runs diameter-estimating BFS sweeps and must not
// be.
func (g *CSR) MaxDegreeVertex() uint32 {
	g.maxDegOnce.Do(func() {
		g.maxDegVertex = maxDegreeVertex(g.Offsets)
	})
	return g.maxDegVertex
}

// ArcVertices returns how many vertices have at least one out-arc and the i-th of them in id
// order (0 <= i < count), from one O(V) scan of Offsets computed on first call and cached (the
// list is kept only when some vertex has no arc): random sources are drawn from them inside an
// engine's timed region.
func (g *CSR) ArcVertices() (count int, at func(i int) uint32) {
	g.arcVertsOnce.Do(func() {
		n := g.NumVertices()
		k := 0
		for v := 0; v < n; v++ {
			if g.Offsets[v+1] > g.Offsets[v] {
				k++
			}
		}
		g.numArcVerts = k
		if k == n {
			return
		}
		g.arcVerts = make([]uint32, 0, k)
		for v := 0; v < n; v++ {
			if g.Offsets[v+1] > g.Offsets[v] {
				g.arcVerts = append(g.arcVerts, uint32(v))
			}
		}
	})
	if g.arcVerts == nil {
		return g.numArcVerts, func(i int) uint32 { return uint32(i) }
	}
	list := g.arcVerts
	return g.numArcVerts, func(i int) uint32 { return list[i] }
}

// DegreeHistogram returns the out-degree histogram, equal to Properties().DegreeHistogram
// (bucket k counts the vertices whose degree d has bits.Len(d) == k, trailing empty buckets
// trimmed), from one O(V) scan of Offsets computed on first call and cached: cheap enough for
// an engine's timed region, unlike Properties. Do not modify the returned slice.
func (g *CSR) DegreeHistogram() []int64 {
	g.histOnce.Do(func() {
		if g.NumVertices() <= 0 {
			return // nil, as Properties
		}
		h := make([]int64, 65)
		for v := 0; v+1 < len(g.Offsets); v++ {
			h[bits.Len64(uint64(g.Offsets[v+1]-g.Offsets[v]))]++
		}
		g.hist = trimHistogram(h)
	})
	return g.hist
}

// trimHistogram drops the trailing empty buckets (keeping bucket 0).
func trimHistogram(h []int64) []int64 {
	last := len(h)
	for last > 1 && h[last-1] == 0 {
		last--
	}
	return h[:last]
}

// maxDegreeVertex returns the lowest v with the largest Offsets[v+1]-Offsets[v].
func maxDegreeVertex(off []int64) uint32 {
	var best uint32
	var bestDeg int64 = -1
	for v := 0; v+1 < len(off); v++ {
		if d := off[v+1] - off[v]; d > bestDeg {
			best, bestDeg = uint32(v), d
		}
	}
	return best
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
		h.Write(Int64Bytes(g.Offsets))
		h.Write(Uint32Bytes(g.Neighbors))
		h.Write(Int32Bytes(g.Weights))
		g.fingerprint = hex.EncodeToString(h.Sum(nil)[:8])
	})
	return g.fingerprint
}

// parallelMin is the number of vertices from which properties are computed on all cores.
const parallelMin = 1 << 15

func computeProperties(g *CSR) Properties {
	n := g.NumVertices()
	p := Properties{Vertices: n, Arcs: g.NumArcs(), Edges: g.NumEdges(), Bytes: g.Bytes(), Diameter: -1,
		SelfLoopsRemoved: g.Origin.SelfLoopsRemoved, DuplicatesRemoved: g.Origin.DuplicatesRemoved}
	if n == 0 {
		return p
	}
	workers := runtime.GOMAXPROCS(0)
	if n < parallelMin {
		workers = 1
	}
	// In-arcs matter only for directed graphs (an undirected vertex with no out-arcs has none).
	var hasIn []uint32
	if g.Directed {
		hasIn = make([]uint32, (n+31)/32)
	}
	bounds := SplitByArcs(g.Offsets, workers*4)
	parts := make([]Properties, len(bounds)-1)
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(parts) {
					return
				}
				parts[k] = degreeStats(g, bounds[k], bounds[k+1], hasIn)
			}
		}()
	}
	wg.Wait()
	p.MinDegree = parts[0].MinDegree
	p.DegreeHistogram = make([]int64, 65)
	for _, q := range parts {
		p.MinDegree = min(p.MinDegree, q.MinDegree)
		if q.MaxDegree > p.MaxDegree {
			p.MaxDegree, p.MaxDegreeVertex = q.MaxDegree, q.MaxDegreeVertex
		}
		for k, c := range q.DegreeHistogram {
			p.DegreeHistogram[k] += c
		}
		p.SelfLoops += q.SelfLoops
		p.Isolated += q.Isolated
	}
	p.DegreeHistogram = trimHistogram(p.DegreeHistogram)
	if g.Directed {
		// Isolated so far counts vertices with no out-arcs; drop those with in-arcs.
		for v := 0; v < n; v++ {
			if g.Offsets[v+1] == g.Offsets[v] && hasIn[v>>5]&(1<<(v&31)) != 0 {
				p.Isolated--
			}
		}
	}
	p.AvgDegree = float64(p.Arcs) / float64(n)
	p.Diameter = estimateDiameter(g, p.MaxDegreeVertex, workers)
	return p
}

// degreeStats returns the degree facts of vertices [lo, hi) (MinDegree, MaxDegree and its
// vertex, DegreeHistogram, SelfLoops, and in Isolated the vertices without out-arcs), and
// marks in hasIn (when not nil) every vertex that has an in-arc.
func degreeStats(g *CSR, lo, hi int, hasIn []uint32) Properties {
	q := Properties{MinDegree: math.MaxInt64, DegreeHistogram: make([]int64, 65)}
	for v := lo; v < hi; v++ {
		d := g.Offsets[v+1] - g.Offsets[v]
		q.MinDegree = min(q.MinDegree, d)
		if d > q.MaxDegree {
			q.MaxDegree, q.MaxDegreeVertex = d, uint32(v)
		}
		q.DegreeHistogram[bits.Len64(uint64(d))]++
		if d == 0 {
			q.Isolated++
		}
		for _, u := range g.Neighbors[g.Offsets[v]:g.Offsets[v+1]] {
			if u == uint32(v) {
				q.SelfLoops++
			}
			if hasIn != nil {
				if m := uint32(1) << (u & 31); atomic.LoadUint32(&hasIn[u>>5])&m == 0 {
					atomic.OrUint32(&hasIn[u>>5], m)
				}
			}
		}
	}
	return q
}

// estimateDiameter runs a few double sweeps: BFS from a start, then from the farthest vertex
// found, keeping the largest eccentricity seen. It is a lower bound, exact on trees and usually
// close on road and mesh graphs. Arcs are followed forward only. Large graphs are searched
// on all cores (level-synchronous BFS).
func estimateDiameter(g *CSR, start uint32, workers int) int {
	n := g.NumVertices()
	depth := make([]int32, n)
	best := 0
	src := start
	for sweep := 0; sweep < 4; sweep++ {
		var far uint32
		var ecc int
		if workers > 1 {
			far, ecc = bfsParallel(g, src, depth, workers)
		} else {
			far, ecc = bfsSerial(g, src, depth)
		}
		if ecc > best {
			best = ecc
		} else if sweep > 0 {
			break
		}
		src = far
	}
	return best
}

// bfsSerial returns the smallest of the farthest vertices from src, and its depth.
func bfsSerial(g *CSR, src uint32, depth []int32) (uint32, int) {
	for i := range depth {
		depth[i] = -1
	}
	queue := make([]uint32, 0, 1024)
	queue = append(queue, src)
	depth[src] = 0
	far := src
	for h := 0; h < len(queue); h++ {
		v := queue[h]
		for _, u := range g.Neighbors[g.Offsets[v]:g.Offsets[v+1]] {
			if depth[u] < 0 {
				depth[u] = depth[v] + 1
				queue = append(queue, u)
				if depth[u] > depth[far] || u < far {
					far = u
				}
			}
		}
	}
	return far, int(depth[far])
}

// bfsParallel is bfsSerial level by level on all cores: each worker claims unvisited
// neighbours of its share of the frontier with a compare-and-swap. It returns the smallest
// vertex of the last level, so the result does not depend on scheduling.
func bfsParallel(g *CSR, src uint32, depth []int32, workers int) (uint32, int) {
	n := len(depth)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := n * w / workers; i < n*(w+1)/workers; i++ {
				depth[i] = -1
			}
		}(w)
	}
	wg.Wait()
	depth[src] = 0
	frontier := []uint32{src}
	level := int32(0)
	for {
		nexts := make([][]uint32, workers)
		var pos atomic.Int64
		const grain = 256
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				var out []uint32
				for {
					lo := int(pos.Add(grain) - grain)
					if lo >= len(frontier) {
						break
					}
					for _, v := range frontier[lo:min(lo+grain, len(frontier))] {
						for _, u := range g.Neighbors[g.Offsets[v]:g.Offsets[v+1]] {
							d := (*int32)(unsafe.Pointer(&depth[u]))
							if atomic.LoadInt32(d) < 0 && atomic.CompareAndSwapInt32(d, -1, level+1) {
								out = append(out, u)
							}
						}
					}
				}
				nexts[w] = out
			}(w)
		}
		wg.Wait()
		var next []uint32
		for _, o := range nexts {
			next = append(next, o...)
		}
		if len(next) == 0 {
			far := frontier[0]
			for _, v := range frontier {
				far = min(far, v)
			}
			return far, int(level)
		}
		frontier = next
		level++
	}
}
