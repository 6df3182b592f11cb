package loader

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gworkbench/gworkbench/graph"
)

// fuzzLoad parses data as the file name says, twice: with the normal chunk size and with tiny
// chunks (so that lines straddle chunk boundaries and buffers grow). Both must agree, must
// not panic, and must either build a valid CSR or return a located loader error.
func fuzzLoad(t *testing.T, name string, data []byte, opt Options) {
	// A tiny input can name a huge vertex id; keep such graphs to a refusal.
	savedMem := availableMemory
	availableMemory = func() int64 { return 8 << 20 }
	defer func() { availableMemory = savedMem }()
	g1, err1 := LoadReader(context.Background(), bytes.NewReader(data), name, opt)
	saved := chunkSize
	chunkSize = 7
	g2, err2 := LoadReader(context.Background(), bytes.NewReader(data), name, opt)
	chunkSize = saved
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("chunk sizes disagree: %v / %v", err1, err2)
	}
	if err1 != nil {
		if !strings.HasPrefix(err1.Error(), "loader: ") {
			t.Fatalf("error without the package prefix: %v", err1)
		}
		var pe *ParseError
		if errors.As(err1, &pe) && pe.File != name {
			t.Fatalf("error names %q, want %q", pe.File, name)
		}
		if err1.Error() != err2.Error() {
			t.Fatalf("chunk sizes give different errors:\n%v\n%v", err1, err2)
		}
		return
	}
	if g1.Fingerprint() != g2.Fingerprint() {
		t.Fatalf("chunk sizes give different graphs")
	}
	checkCSRDups(t, g1, opt.Duplicates == "keep")
}

// fuzzTight loads data once with little memory (tiny chunks, a parse that outgrows avail
// bytes stops): it must build a valid CSR or refuse with a loader error, never crash. Where
// the memory watch stops depends on the chunking, so the two chunk sizes are not compared.
func fuzzTight(t *testing.T, name string, data []byte, opt Options, avail int64) {
	savedMem, savedChunk := availableMemory, chunkSize
	availableMemory = func() int64 { return avail }
	chunkSize = 16
	defer func() { availableMemory, chunkSize = savedMem, savedChunk }()
	g, err := LoadReader(context.Background(), bytes.NewReader(data), name, opt)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "loader: ") || strings.Contains(err.Error(), "\n") {
			t.Fatalf("not a one-line loader error: %q", err)
		}
		return
	}
	checkCSR(t, g)
}

func fuzzSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

func FuzzEdgeList(f *testing.F) {
	fuzzSeeds(f, "0 1\n1 2\n", "# c\n0\t1\r\n1\t2\r\n", "id_1,id_2\n0,1\n", "0 1 5\n1 2 3.5\n", "0 1\n1 x\n", "0 0\n0 1\n0 1\n",
		// Other formats read as edge lists: refused at their header line.
		"p tw 3 2\n1 2\n2 3\n", "c x\nc y\n0 1\n", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n",
		"3 3 3\n1 2\n2 3\n3 1\n", "4 4\n2 3 4\n1\n1 4\n1 3\n", "1 2 1 100\n2 3 1\n",
		// Ids far beyond the edge count (compacted; as numbers, refused for memory).
		"0 1\n1 2000000000\n", "4294967294 0\n", "7 3000000000 5\n3000000000 7 1\n",
		// Long lines.
		"0 1\n"+strings.Repeat(" ", 5000)+"\n1 2\n", strings.Repeat("1", 3000)+" 2\n", "# "+strings.Repeat("c", 9000)+"\n0 1\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.txt", data, DefaultOptions())
		o := DefaultOptions()
		o.Direction, o.Weights = "undirected", "uniform:1:9"
		fuzzLoad(t, "f.txt", data, o)
		o = DefaultOptions()
		o.Base = 0 // ids as numbers: a far id sizes the graph
		fuzzLoad(t, "f.el", data, o)
		fuzzTight(t, "f.txt", data, DefaultOptions(), 2048)
	})
}

func FuzzMatrixMarket(f *testing.F) {
	fuzzSeeds(f,
		"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n",
		"%%MatrixMarket matrix coordinate real general\n% c\n2 2 2\n1 2 2.5\n2 1 1e3\n",
		"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 -1\n",
		"1 2\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.mtx", data, DefaultOptions())
	})
}

func FuzzGR(f *testing.F) {
	fuzzSeeds(f, "c x\np sp 3 2\na 1 2 7\na 3 1 2\n", "p tw 3 2\n1 2\n3 2\n", "p sp 2 1\na 1 2\n", "a 1 2 3\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.gr", data, DefaultOptions())
	})
}

func FuzzMETIS(f *testing.F) {
	fuzzSeeds(f, "3 2\n2 3\n1\n1\n", "3 2 1\n2 5 3 6\n1 5\n1 6\n", "2 1 011 2\n9 8 2 4\n7 6 1 4\n", "% c\n3 1\n2\n1\n\n", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n",
		// Asymmetric adjacency (refused at the vertex's line), asymmetric weights, duplicates.
		"3 2\n2 3\n1\n2\n", "% c\n3 2\n2 3\n% c\n1\n3\n", "2 1 001\n2 5\n1 6\n", "3 2\n2 2 3\n1 1\n1\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.graph", data, DefaultOptions())
		o := DefaultOptions()
		o.Duplicates = "keep"
		fuzzLoad(t, "f.graph", data, o)
	})
}

func FuzzGWG(f *testing.F) {
	g, _ := FromEdges(4, []Edge{{0, 1, 3}, {1, 2, 4}, {2, 3, 5}}, false, true)
	var buf bytes.Buffer
	path := f.TempDir() + "/s.gwg"
	if err := WriteGWG(path, g); err != nil {
		f.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	buf.Write(data)
	f.Add(buf.Bytes())
	f.Add([]byte("GWGRAPH\x00"))
	// Checksummed but wrong: flagged undirected yet asymmetric, a negative weight, unsorted.
	for _, h := range []*graph.CSR{
		{Offsets: []int64{0, 1, 2, 3}, Neighbors: []uint32{1, 2, 0}},
		{Offsets: []int64{0, 1, 2}, Neighbors: []uint32{1, 0}, Weights: []int32{3, 4}},
		{Offsets: []int64{0, 1, 1}, Neighbors: []uint32{1}, Weights: []int32{-5}, Directed: true},
		{Offsets: []int64{0, 2, 2, 2}, Neighbors: []uint32{2, 1}, Directed: true},
	} {
		if err := WriteGWG(path, h); err != nil {
			f.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := LoadReader(context.Background(), bytes.NewReader(data), "f.gwg", DefaultOptions())
		if err != nil {
			if !strings.HasPrefix(err.Error(), "loader: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		if err := validateCSR(g.Offsets, g.Neighbors, uint64(g.NumVertices())); err != "" {
			t.Fatalf("accepted an invalid graph: %s", err)
		}
		if err := validateLists(g.Offsets, g.Neighbors, g.Weights, !g.Directed); err != "" {
			t.Fatalf("accepted an invalid graph: %s", err)
		}
	})
}

func FuzzGzip(f *testing.F) {
	f.Add(gzipBytes([]byte("0 1\n1 2\n")))
	f.Add(gzipBytes([]byte("p tw 2 1\n1 2\n"))[:20])
	// A small bomb (64 KB of "0 1" lines from a few hundred bytes, as two gzip members), a
	// long line of spaces, a gzip-compressed .gwg.
	bomb := gzipBytes(bytes.Repeat([]byte("0 1\n"), 8192))
	f.Add(append(append([]byte(nil), bomb...), bomb...))
	f.Add(gzipBytes(bytes.Repeat([]byte(" "), 1<<16)))
	f.Add(gzipBytes([]byte("GWGRAPH\x00\x01\x00\x00\x00")))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.txt.gz", data, DefaultOptions())
		fuzzTight(t, "f.txt.gz", data, DefaultOptions(), 4096)
	})
}
