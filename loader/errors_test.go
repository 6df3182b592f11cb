package loader

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const mmHead = "%%MatrixMarket matrix coordinate pattern general\n"

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestBadInput feeds every kind of malformed input to Load and checks that the error names the
// file, the line (or byte) and what was expected.
func TestBadInput(t *testing.T) {
	big := bytes.Repeat([]byte("1 2\n3 4\n"), 50000)
	gz := gzipBytes(big)
	corrupt := append([]byte(nil), gz...)
	for i := len(corrupt) / 2; i < len(corrupt)/2+64; i++ {
		corrupt[i] ^= 0x5a
	}
	cases := []struct {
		name, file string
		data       []byte
		opt        func(*Options)
		want       string
	}{
		// Matrix Market.
		{"mtx header-less", "a.mtx", []byte("1 2\n2 3\n"), nil, "a.mtx:1: expected the Matrix Market banner"},
		{"mtx wrong banner", "a.mtx", []byte("%%MatrixMarket tensor coordinate real general\n"), nil, "a.mtx:1: expected the banner"},
		{"mtx array", "a.mtx", []byte("%%MatrixMarket matrix array real general\n3 3\n"), nil, "a.mtx:1: expected a coordinate (sparse) matrix"},
		{"mtx complex", "a.mtx", []byte("%%MatrixMarket matrix coordinate complex general\n"), nil, "a.mtx:1: expected field pattern, integer or real, found complex"},
		{"mtx symmetry", "a.mtx", []byte("%%MatrixMarket matrix coordinate real lower\n"), nil, `a.mtx:1: expected symmetry general, symmetric or skew-symmetric, found "lower"`},
		{"mtx no size line", "a.mtx", []byte(mmHead + "% only comments\n"), nil, "a.mtx: the file ends before the size line"},
		{"mtx bad size line", "a.mtx", []byte(mmHead + "3 3\n1 2\n"), nil, `a.mtx:2: expected the size line "ROWS COLS ENTRIES"`},
		{"mtx size non-numeric", "a.mtx", []byte(mmHead + "3 x 2\n1 2\n"), nil, "a.mtx:2: expected the size line"},
		{"mtx fewer entries", "a.mtx", []byte(mmHead + "3 3 3\n1 2\n2 3\n"), nil, "a.mtx:2: the size line says 3 entries, but the file has 2"},
		{"mtx more entries", "a.mtx", []byte(mmHead + "3 3 1\n1 2\n2 3\n"), nil, "a.mtx:2: the size line says 1 entries, but the file has 2"},
		{"mtx id out of range", "a.mtx", []byte(mmHead + "3 3 2\n1 2\n4 1\n"), nil, "a.mtx:4: vertex id 4 is out of range: the size line says 3 rows/columns, ids 1..3"},
		{"mtx id zero", "a.mtx", []byte(mmHead + "3 3 1\n0 1\n"), nil, "a.mtx:3: vertex id 0 is below the id base 1"},
		{"mtx token", "a.mtx", []byte(mmHead + "3 3 1\n1 x\n"), nil, `a.mtx:3: expected a vertex id (a non-negative integer) as field 2 of "I J", found "x"`},
		{"mtx one field", "a.mtx", []byte(mmHead + "3 3 1\n1\n"), nil, `a.mtx:3: expected "I J", found only 1 field(s)`},
		{"mtx negative weight", "a.mtx", []byte("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 -5\n"), nil, `a.mtx:3: negative weight "-5"`},
		{"mtx missing weight", "a.mtx", []byte("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2\n"), nil, "a.mtx:3: missing weight"},
		{"mtx bad weight", "a.mtx", []byte("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 abc\n"), nil, `a.mtx:3: expected a weight (a non-negative number) as field 3 of "I J VALUE", found "abc"`},
		{"mtx huge weight", "a.mtx", []byte("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 99999999999\n"), nil, `a.mtx:3: weight "99999999999" is out of range`},
		// Edge lists.
		{"snap token", "a.txt", []byte("# c\n0 1\n1 x\n"), nil, `a.txt:3: expected a vertex id (a non-negative integer) as field 2 of "U V", found "x"`},
		{"snap negative id", "a.txt", []byte("0 1\n-1 2\n"), nil, `a.txt:2: expected a vertex id (a non-negative integer) as field 1 of "U V", found "-1"`},
		{"snap id too big", "a.txt", []byte("0 1\n1 99999999999\n"), nil, "a.txt:2: vertex id 99999999999 is out of range (at most 4294967294)"},
		{"snap id 2^32-1", "a.txt", []byte("0 4294967295\n"), nil, "a.txt:1: vertex id 4294967295 is out of range (at most 4294967294)"},
		{"snap id 30 digits", "a.txt", []byte("0 1\n1 123456789012345678901234567890\n"), nil, "a.txt:2: vertex id 123456789012345678901234 is out of range"},
		{"el four fields", "a.el", []byte("0 1 2 3\n"), nil, `a.el:1: expected an edge "U V" or "U V W", found 4 fields`},
		{"snap one field", "a.txt", []byte("0\n"), nil, `a.txt:1: expected an edge "U V" (or "U V W"), found 1 field`},
		{"snap later missing weight", "a.txt", []byte("0 1 5\n1 2\n"), nil, `a.txt:2: missing weight: expected "U V W", found 2 fields`},
		{"snap later extra field", "a.txt", []byte("0 1\n1 2 3\n"), nil, `a.txt:2: expected the end of the line after "U V", found "3"`},
		{"snap empty csv field", "a.csv", []byte("0,1\n1,,2\n"), nil, `a.csv:2: expected field 2 of "U V", found an empty field`},
		{"snap negative weight", "a.txt", []byte("0 1 5\n1 2 -3\n"), nil, `a.txt:2: negative weight "-3"`},
		{"snap base 1 id 0", "a.txt", []byte("1 2\n0 2\n"), func(o *Options) { o.Base = 1 }, "a.txt:2: vertex id 0 is below the id base 1"},
		{"snap only comments", "a.txt", []byte("# nothing\n% here\n"), nil, "a.txt: no edges"},
		{"el three fields", "a.el", []byte("0 1 3\n"), nil, `a.el:1: expected 2 fields "U V" in a .el file, found 3`},
		{"wel two fields", "a.wel", []byte("0 1\n"), nil, `a.wel:1: missing weight: expected "U V W" in a .wel file`},
		// DIMACS and PACE.
		{"dimacs arc before p", "a.gr", []byte("c hi\na 1 2 3\n"), nil, `a.gr:2: expected the problem line "p sp N M" (DIMACS) or "p tw N M" (PACE) before any data, found "a"`},
		{"dimacs bad p", "a.gr", []byte("p max 3 2\n"), nil, `a.gr:1: expected the problem line "p sp N M" (DIMACS) or "p tw N M" (PACE), found "p max 3 2"`},
		{"dimacs p non-numeric", "a.gr", []byte("p sp x 2\n"), nil, `a.gr:1: expected the problem line "p sp N M" with two non-negative integers`},
		{"dimacs count", "a.gr", []byte("p sp 3 2\na 1 2 5\n"), nil, "a.gr:1: the problem line says 2 arcs, but the file has 1"},
		{"dimacs missing weight", "a.gr", []byte("p sp 3 1\na 1 2\n"), nil, `a.gr:2: missing weight: expected "a U V W", found 2 fields`},
		{"dimacs id 0", "a.gr", []byte("p sp 3 1\na 0 2 1\n"), nil, "a.gr:2: vertex id 0 is below the id base 1"},
		{"dimacs id > N", "a.gr", []byte("p sp 3 1\na 1 4 1\n"), nil, "a.gr:2: vertex id 4 is out of range: the problem line says 3 vertices, ids 1..3"},
		{"dimacs negative weight", "a.gr", []byte("p sp 3 1\na 1 2 -1\n"), nil, `a.gr:2: negative weight "-1"`},
		{"dimacs other line", "a.gr", []byte("p sp 3 1\ne 1 2 1\n"), nil, `a.gr:2: expected an arc line "a U V W" or a comment, found "e"`},
		{"dimacs told pace", "a.gr", []byte("p sp 3 1\na 1 2 1\n"), func(o *Options) { o.Format = "pace" }, `a.gr:1: format=pace expects "p tw N M"`},
		{"pace count", "a.gr", []byte("p tw 3 3\n1 2\n2 3\n"), nil, "a.gr:1: the problem line says 3 edges, but the file has 2"},
		{"pace token", "a.gr", []byte("p tw 3 2\n1 2\n2 b\n"), nil, `a.gr:3: expected a vertex id (a non-negative integer) as field 2 of "U V", found "b"`},
		{"gr no p line", "a.gr", []byte("c only\n"), nil, "a.gr: no problem line"},
		// METIS.
		{"metis bad header", "a.graph", []byte("a b\n"), nil, `a.graph:1: expected the METIS header "N M [FMT [NCON]]" with N and M non-negative integers`},
		{"metis bad fmt", "a.graph", []byte("2 1 2\n2\n1\n"), nil, `a.graph:1: expected FMT of up to three 0/1 digits`},
		{"metis few lines", "a.graph", []byte("3 1\n2\n1\n"), nil, "a.graph:1: the header says 3 vertices, but the file has 2 vertex lines"},
		{"metis extra line", "a.graph", []byte("2 1\n2\n1\n1\n"), nil, "a.graph:4: the header says 2 vertices, but this line would be vertex 3"},
		{"metis neighbour range", "a.graph", []byte("2 1\n3\n1\n"), nil, "a.graph:2: neighbour id 3 is out of range: the header says 2 vertices, ids 1..2"},
		{"metis edge count", "a.graph", []byte("3 2\n2\n1\n\n"), nil, "a.graph:1: the header says 2 edges, so the adjacency lines should hold 4 neighbours (each edge from both ends), but they hold 2"},
		{"metis missing weight", "a.graph", []byte("2 1 1\n2\n1 5\n"), nil, "a.graph:2: missing weight"},
		{"metis token", "a.graph", []byte("2 1\n2 x\n1\n"), nil, `a.graph:2: expected a neighbour id (a positive integer) on the line of vertex 1, found "x"`},
		// Files.
		{"empty file", "a.txt", []byte{}, nil, "a.txt: empty file"},
		{"empty gzip", "a.txt.gz", gzipBytes(nil), nil, "a.txt.gz: empty file: the gzip stream holds no data"},
		{"binary garbage", "a.txt", []byte("0 1\n\x00\x01\x02garbage"), nil, "a.txt: byte 4: binary data (byte 0x00)"},
		{"binary garbage mtx", "a.mtx", []byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0}, nil, "a.mtx: byte 4: binary data (byte 0x02)"},
		{"truncated gzip", "a.txt.gz", gz[:len(gz)/2], nil, "a.txt.gz:"},
		{"corrupt gzip", "a.txt.gz", corrupt, nil, "corrupt gzip"},
		{"gwg truncated", "a.gwg", []byte("GWGRAPH\x00\x01\x00\x00\x00"), nil, "truncated .gwg file"},
		{"gwg garbage", "a.gwg", bytes.Repeat([]byte{7}, 100), nil, `corrupt .gwg file: expected the magic`},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			opt := DefaultOptions()
			if c.opt != nil {
				c.opt(&opt)
			}
			g, err := Load(context.Background(), path, opt)
			if err == nil {
				t.Fatalf("loaded V=%d arcs=%d, want error %q", g.NumVertices(), g.NumArcs(), c.want)
			}
			msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			if !strings.Contains(msg, c.want) || !strings.HasPrefix(msg, "loader: ") {
				t.Errorf("got  %s\nwant %s", msg, c.want)
			}
		})
	}
}

func TestTruncatedGzipNamesLine(t *testing.T) {
	big := bytes.Repeat([]byte("1 2\n3 4\n"), 200000)
	gz := gzipBytes(big)
	path := filepath.Join(t.TempDir(), "t.el.gz")
	os.WriteFile(path, gz[:len(gz)*2/3], 0o644)
	_, err := Load(context.Background(), path, DefaultOptions())
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line < 2 || !strings.Contains(pe.Msg, "truncated gzip stream") {
		t.Fatalf("got %v, want a truncated gzip error with a line", err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(context.Background(), "no/such/file.mtx", DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), "no/such/file.mtx") {
		t.Fatalf("got %v", err)
	}
	_, err = Load(context.Background(), t.TempDir(), DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("got %v", err)
	}
}

// TestLoadTooBig checks both memory refusals: from the file size before parsing, and from the
// counts before building.
func TestLoadTooBig(t *testing.T) {
	defer func(f func() int64) { availableMemory = f }(availableMemory)
	availableMemory = func() int64 { return 1 << 20 }
	_, err := Load(context.Background(), filepath.Join(graphsDir, "NY.gr"), DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), "NY.gr (4.8 MB, about") || !strings.Contains(err.Error(), "but only 1.0 MB is available") {
		t.Errorf("before parsing: got %v", err)
	}
	// A header that promises many vertices in a tiny file.
	path := filepath.Join(t.TempDir(), "big.gr")
	os.WriteFile(path, []byte("p sp 100000000 1\na 1 2 3\n"), 0o644)
	availableMemory = func() int64 { return 100 << 20 }
	_, err = Load(context.Background(), path, DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), "big.gr needs about 800.0 MB of memory to build, but only 104.9 MB is available") {
		t.Errorf("before building: got %v", err)
	}
}
