package loader

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/graph"
)

// peakHeap samples the heap while fn runs and returns the peak bytes above the starting
// heap (runtime.ReadMemStats every few milliseconds).
func peakHeap(fn func()) int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := int64(ms.HeapAlloc)
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if h := int64(ms.HeapAlloc) - base; h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	runtime.ReadMemStats(&ms)
	if h := int64(ms.HeapAlloc) - base; h > peak.Load() {
		peak.Store(h)
	}
	return peak.Load()
}

func benchGen(b *testing.B, kind string, kv map[string]string) {
	var g *graph.CSR
	var peak int64
	for i := 0; i < b.N; i++ {
		g = nil
		peak = max(peak, peakHeap(func() {
			var err error
			g, err = Generate(context.Background(), kind, kv, nil)
			if err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(float64(g.NumArcs())/b.Elapsed().Seconds()*float64(b.N)/1e6, "Marcs/s")
	b.ReportMetric(float64(peak)/1e6, "peakMB")
	b.ReportMetric(float64(peak)/float64(g.Bytes()), "peak/CSR")
}

func BenchmarkGenKron22(b *testing.B) {
	benchGen(b, "kron", map[string]string{"scale": "22", "degree": "16"})
}

func BenchmarkGenKron18(b *testing.B) {
	benchGen(b, "kron", map[string]string{"scale": "18", "degree": "16"})
}

func BenchmarkGenURand18(b *testing.B) {
	benchGen(b, "urand", map[string]string{"scale": "18", "degree": "16"})
}

func BenchmarkGenRoad1M(b *testing.B) {
	benchGen(b, "road", map[string]string{"vertices": "1000000"})
}

func BenchmarkGenRGG18(b *testing.B) {
	benchGen(b, "rgg", map[string]string{"scale": "18", "degree": "8"})
}
