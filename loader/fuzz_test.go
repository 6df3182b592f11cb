package loader

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
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
	checkCSR(t, g1)
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
		"3 3 3\n1 2\n2 3\n3 1\n", "4 4\n2 3 4\n1\n1 4\n1 3\n", "1 2 1 100\n2 3 1\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.txt", data, DefaultOptions())
		o := DefaultOptions()
		o.Direction, o.Weights = "undirected", "uniform:1:9"
		fuzzLoad(t, "f.txt", data, o)
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
	fuzzSeeds(f, "3 2\n2 3\n1\n1\n", "3 2 1\n2 5 3 6\n1 5\n1 6\n", "2 1 011 2\n9 8 2 4\n7 6 1 4\n", "% c\n3 1\n2\n1\n\n", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.graph", data, DefaultOptions())
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
	})
}

func FuzzGzip(f *testing.F) {
	f.Add(gzipBytes([]byte("0 1\n1 2\n")))
	f.Add(gzipBytes([]byte("p tw 2 1\n1 2\n"))[:20])
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzLoad(t, "f.txt.gz", data, DefaultOptions())
	})
}
