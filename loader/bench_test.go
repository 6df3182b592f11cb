package loader

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/graph"
)

// peakHeap samples the live heap (runtime/metrics, which does not stop the world) every
// millisecond while fn runs and returns the peak bytes above the heap at the start.
func peakHeap(fn func()) int64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() int64 {
		metrics.Read(sample)
		return int64(sample[0].Value.Uint64())
	}
	base := read()
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if h := read() - base; h > peak.Load() {
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
	if h := read() - base; h > peak.Load() {
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
