package graph

import (
	"sync"
	"testing"
)

var (
	benchOnce sync.Once
	benchG    *CSR
)

// benchGraph is a random directed graph with 1 M vertices and 8 M arcs, built once.
func benchGraph() *CSR {
	benchOnce.Do(func() {
		const n, m = 1 << 20, 8 << 20
		off := make([]int64, n+1)
		nb := make([]uint32, m)
		x := uint64(1)
		for v := 0; v < n; v++ {
			off[v+1] = off[v] + m/n
			for i := off[v]; i < off[v+1]; i++ {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				nb[i] = uint32(x % n)
			}
		}
		benchG = &CSR{Offsets: off, Neighbors: nb, Directed: true}
	})
	return benchG
}

func BenchmarkTranspose(b *testing.B) {
	g := benchGraph()
	b.ResetTimer()
	var t *CSR
	for i := 0; i < b.N; i++ {
		t = buildTranspose(g, workersFor())
	}
	b.StopTimer()
	if t.NumArcs() != g.NumArcs() {
		b.Fatal("arcs lost")
	}
	b.ReportMetric(float64(g.NumArcs())/1e6/(b.Elapsed().Seconds()/float64(b.N)), "Marcs/s")
}

func BenchmarkProperties(b *testing.B) {
	g := benchGraph()
	b.ResetTimer()
	var p Properties
	for i := 0; i < b.N; i++ {
		p = computeProperties(g)
	}
	b.StopTimer()
	if p.Vertices != g.NumVertices() {
		b.Fatal("wrong vertex count")
	}
}
