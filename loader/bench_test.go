package loader

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
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

// benchFile writes, once per process, a whitespace edge list of kron scale=scale degree=16
// (every edge once, "u v" lines, shuffled ids), and returns its path.
var benchFiles sync.Map

func benchFile(b *testing.B, scale int, gz bool) string {
	b.Helper()
	key := fmt.Sprint(scale, gz)
	if p, ok := benchFiles.Load(key); ok {
		return p.(string)
	}
	dir := filepath.Join(os.TempDir(), "gworkbench-bench")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, fmt.Sprintf("kron%d.el", scale))
	if gz {
		path += ".gz"
	}
	if _, err := os.Stat(path); err != nil {
		g, err := Generate(context.Background(), "kron", map[string]string{"scale": fmt.Sprint(scale), "degree": "16"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(path + ".tmp")
		if err != nil {
			b.Fatal(err)
		}
		var w io.Writer = f
		var zw *gzip.Writer
		if gz {
			zw = gzip.NewWriter(f)
			w = zw
		}
		bw := bufio.NewWriterSize(w, 1<<20)
		buf := make([]byte, 0, 32)
		for v := 0; v < g.NumVertices(); v++ {
			for _, u := range g.Neigh(uint32(v)) {
				if uint32(v) < u {
					buf = strconv.AppendUint(buf[:0], uint64(v), 10)
					buf = append(buf, ' ')
					buf = strconv.AppendUint(buf, uint64(u), 10)
					buf = append(buf, '\n')
					bw.Write(buf)
				}
			}
		}
		bw.Flush()
		if zw != nil {
			zw.Close()
		}
		f.Close()
		os.Rename(path+".tmp", path)
	}
	benchFiles.Store(key, path)
	return path
}

func benchLoad(b *testing.B, path string, opt Options) {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	os.ReadFile(path) // into the page cache
	b.ResetTimer()
	var g *graph.CSR
	var peak int64
	for i := 0; i < b.N; i++ {
		g = nil
		peak = max(peak, peakHeap(func() {
			g, err = Load(context.Background(), path, opt)
			if err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.StopTimer()
	b.SetBytes(fi.Size())
	b.ReportMetric(float64(peak)/1e6, "peakMB")
	b.ReportMetric(float64(peak)/float64(g.Bytes()), "peak/CSR")
	b.ReportMetric(float64(g.NumArcs())/1e6, "Marcs")
}

// BenchmarkLoadEdgeList reads a whitespace edge list (kron scale 20: 16 M lines, about
// 230 MB) into a directed CSR: MB/s is end to end, file to CSR.
func BenchmarkLoadEdgeList(b *testing.B) {
	benchLoad(b, benchFile(b, 20, false), DefaultOptions())
}

// BenchmarkLoadEdgeListUndirected reads the same file and symmetrizes it.
func BenchmarkLoadEdgeListUndirected(b *testing.B) {
	o := DefaultOptions()
	o.Direction = "undirected"
	benchLoad(b, benchFile(b, 20, false), o)
}

// BenchmarkLoadEdgeListGzip reads the gzipped file.
func BenchmarkLoadEdgeListGzip(b *testing.B) {
	benchLoad(b, benchFile(b, 20, true), DefaultOptions())
}

// BenchmarkReadGWG loads a .gwg cache of kron scale 20 (undirected, 33 M arcs, about
// 142 MB) from the page cache: MB/s is file bytes per second, checksum and checks included.
func BenchmarkReadGWG(b *testing.B) {
	path := filepath.Join(os.TempDir(), "gworkbench-bench", "kron20.gwg")
	if _, err := ReadGWG(path); err != nil { // absent, or written by an older version
		g, err := Generate(context.Background(), "kron", map[string]string{"scale": "20", "degree": "16"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := WriteGWG(path, g); err != nil {
			b.Fatal(err)
		}
	}
	benchLoad(b, path, DefaultOptions())
}

// BenchmarkWriteGWG saves that graph.
func BenchmarkWriteGWG(b *testing.B) {
	g, err := Generate(context.Background(), "kron", map[string]string{"scale": "20", "degree": "16"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "w.gwg")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := WriteGWG(path, g); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(g.Bytes())
}

// BenchmarkLoadRealGraphs reads every graph of testdata/graphs once per iteration.
func BenchmarkLoadRealGraphs(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(graphsDir, "*"))
	var size int64
	for _, f := range files {
		fi, _ := os.Stat(f)
		size += fi.Size()
	}
	b.SetBytes(size)
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			if filepath.Ext(f) == ".md" {
				continue
			}
			if _, err := Load(context.Background(), f, DefaultOptions()); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLoadDIMACS reads a DIMACS shortest-path file of a road graph (2 M vertices,
// about 5.6 M weighted arcs, about 110 MB).
func BenchmarkLoadDIMACS(b *testing.B) {
	dir := filepath.Join(os.TempDir(), "gworkbench-bench")
	path := filepath.Join(dir, "road2m.gr")
	if _, err := os.Stat(path); err != nil {
		g, err := Generate(context.Background(), "road", map[string]string{"vertices": "2000000"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		os.MkdirAll(dir, 0o755)
		f, err := os.Create(path + ".tmp")
		if err != nil {
			b.Fatal(err)
		}
		bw := bufio.NewWriterSize(f, 1<<20)
		fmt.Fprintf(bw, "c road vertices=2000000\np sp %d %d\n", g.NumVertices(), g.NumArcs())
		buf := make([]byte, 0, 48)
		for v := 0; v < g.NumVertices(); v++ {
			for i, u := range g.Neigh(uint32(v)) {
				buf = append(buf[:0], 'a', ' ')
				buf = strconv.AppendUint(buf, uint64(v+1), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendUint(buf, uint64(u+1), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(g.NeighWeights(uint32(v))[i]), 10)
				buf = append(buf, '\n')
				bw.Write(buf)
			}
		}
		bw.Flush()
		f.Close()
		os.Rename(path+".tmp", path)
	}
	benchLoad(b, path, DefaultOptions())
}

// BenchmarkLoadEdgeListShuffled reads the edge list with its lines in random order (so the
// sources cannot be run-length encoded and every list needs sorting).
func BenchmarkLoadEdgeListShuffled(b *testing.B) {
	src := benchFile(b, 20, false)
	path := strings.TrimSuffix(src, ".el") + "s.el"
	if _, err := os.Stat(path); err != nil {
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte{'\n'})
		r := rand.New(rand.NewPCG(1, 1))
		r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	benchLoad(b, path, DefaultOptions())
}
