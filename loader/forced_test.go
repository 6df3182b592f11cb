package loader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForcedEdgeListRefusesOtherFormats reads the files of the other text formats as edge
// lists (format=snap, el, wel, or a .txt name): each must be refused at the line that gives
// it away (the banner, the problem line, the size line or the METIS header) with the format=
// to say, instead of loading a wrong graph (NY.gr as snap once gave 264,347 vertices,
// Lederberg.mtx 8,844) or blaming the line after the real culprit.
func TestForcedEdgeListRefusesOtherFormats(t *testing.T) {
	real := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(graphsDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// delaunay_n14.mtx without its banner: the size line is then the first data line.
	delaunay := real("delaunay_n14.mtx")
	headless := delaunay[bytes.IndexByte(delaunay, '\n')+1:]
	sizeLine := int64(0)
	for i, l := range strings.Split(string(headless), "\n") {
		if !strings.HasPrefix(l, "%") {
			sizeLine = int64(i + 1)
			break
		}
	}
	if sizeLine < 100 {
		t.Fatalf("size line of the header-less delaunay_n14.mtx at %d", sizeLine)
	}
	cases := []struct {
		name, file, format string
		data               []byte
		line               int64
		want               []string
	}{
		// 9: DIMACS and PACE problem lines.
		{"NY.gr snap", "NY.gr", "snap", real("NY.gr"), 1, []string{`a PACE problem line "p tw 264346 365050"`, "say format=pace"}},
		{"NY.gr el", "NY.gr", "el", real("NY.gr"), 1, []string{"PACE problem line", "say format=pace"}},
		{"NY.gr wel", "NY.gr", "wel", real("NY.gr"), 1, []string{"PACE problem line", "say format=pace"}},
		{"rome99.gr snap", "rome99.gr", "snap", real("rome99.gr"), 15, []string{`a DIMACS problem line "p sp 3353 8870"`, "say format=dimacs"}},
		{"rome99.gr wel", "rome99.gr", "wel", real("rome99.gr"), 15, []string{"DIMACS problem line", "say format=dimacs"}},
		{"pace as .txt", "g.txt", "", []byte("p tw 3 2\n1 2\n2 3\n"), 1, []string{"PACE problem line", "format=pace"}},
		{"dimacs after comments", "g.txt", "snap", []byte("c a\nc b\n\np sp 3 1\na 1 2 3\n"), 4, []string{"DIMACS problem line", "format=dimacs"}},
		{"coloring problem", "g.el", "", []byte("p edge 3 2\n1 2\n2 3\n"), 1, []string{`DIMACS problem line "p edge 3 2"`, "format=dimacs", "format=pace"}},
		{"c lines no p", "g.txt", "", []byte("c one\nc two\n1 2\n"), 1, []string{"DIMACS/PACE comment lines", "format=dimacs or format=pace"}},
		{"c line only", "g.txt", "", []byte("c one\n"), 1, []string{"DIMACS/PACE comment line", "no edges"}},
		// 10: Matrix Market banners and METIS headers.
		{"Lederberg.mtx snap", "Lederberg.mtx", "snap", real("Lederberg.mtx"), 1, []string{`a Matrix Market banner "%%MatrixMarket matrix coordinate integer general"`, "say format=mtx"}},
		{"Lederberg.mtx wel", "Lederberg.mtx", "wel", real("Lederberg.mtx"), 1, []string{"Matrix Market banner", "say format=mtx"}},
		{"chesapeake.mtx el", "chesapeake.mtx", "el", real("chesapeake.mtx"), 1, []string{"Matrix Market banner", "say format=mtx"}},
		{"banner lower case", "g.txt", "", []byte("%%matrixmarket matrix coordinate pattern general\n2 2 1\n1 2\n"), 1, []string{"Matrix Market banner", "format=mtx"}},
		{"banner after comments", "g.txt", "", []byte("# x\n\n%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n"), 3, []string{"Matrix Market banner"}},
		{"4elt.graph snap", "4elt.graph", "snap", real("4elt.graph"), 1, []string{`after "15606 45878", the data lines 2..9 have from`, "say format=metis"}},
		{"4elt.graph el", "4elt.graph", "el", real("4elt.graph"), 1, []string{"say format=metis"}},
		{"4elt.graph wel", "4elt.graph", "wel", real("4elt.graph"), 1, []string{"say format=metis"}},
		{"metis small", "g.txt", "", []byte("4 4\n2 3 4\n1\n1 4\n1 3\n"), 1, []string{"from 1 to 3 fields", "format=metis"}},
		{"Lederberg.mtx metis", "Lederberg.mtx", "metis", real("Lederberg.mtx"), 1, []string{"Matrix Market banner", "where a METIS header was expected", "say format=mtx"}},
		{"NY.gr metis", "NY.gr", "metis", real("NY.gr"), 1, []string{"PACE problem line", "where a METIS header was expected", "say format=pace"}},
		// 11: the line blamed is the size line, not the first entry after it.
		{"delaunay_n14.mtx snap", "delaunay_n14.mtx", "snap", delaunay, 1, []string{"Matrix Market banner", "say format=mtx"}},
		{"header-less delaunay snap", "delaunay.txt", "snap", headless, sizeLine, []string{`"16384 16384 49122" has 3 fields, but the 8 data lines after it`, "have 2", "Matrix Market size line"}},
		{"header-less mtx small", "g.txt", "", []byte("% c\n3 3 3\n1 2\n2 3\r\n# x\n3 1\n"), 2, []string{`"3 3 3" has 3 fields, but the 3 data lines after it (lines 3..6) have 2`}},
		{"header-less mtx wel", "g.wel", "", []byte("3 3 3\n1 2\n2 3\n3 1\n"), 1, []string{"has 3 fields, but the 3 data lines after it"}},
		{"size line el", "g.el", "", []byte("3 3\n1 2 1\n2 3 1\n3 1 1\n"), 1, []string{`"3 3" has 2 fields, but the 3 data lines after it (lines 2..4) have 3`, "format=mtx", "format=metis"}},
	}
	dir := t.TempDir()
	defer func(c int) { chunkSize = c }(chunkSize)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, chunk := range []int{4 << 20, 61, 7} {
				chunkSize = chunk
				g, err := Load(context.Background(), path, opts(func(o *Options) { o.Format = c.format }))
				if err == nil {
					t.Fatalf("chunk %d: loaded V=%d arcs=%d (%s), want an error at line %d", chunk, g.NumVertices(), g.NumArcs(), g.Origin.Note, c.line)
				}
				var pe *ParseError
				if !errors.As(err, &pe) || pe.File != path || pe.Line != c.line {
					t.Fatalf("chunk %d: got %v, want an error at %s:%d", chunk, err, c.file, c.line)
				}
				for _, w := range c.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("chunk %d: got  %s\nwant %s", chunk, err, w)
					}
				}
			}
		})
	}
}

// TestEdgeListLookalikesStillLoad: edge lists that resemble the refused cases load as before.
func TestEdgeListLookalikesStillLoad(t *testing.T) {
	cases := []struct {
		name, file, data string
		v                int
		arcs             int64
		note             string
	}{
		{"header starting with p", "g.txt", "p q\n0 1\n1 2\n", 3, 2, `header line 1 skipped: "p q"`},
		{"header p with numbers", "g.txt", "p 1 2\n0 1\n1 2\n", 3, 2, `header line 1 skipped: "p 1 2"`},
		{"one c header", "g.txt", "c d\n0 1\n1 2\n", 3, 2, `header line 1 skipped: "c d"`},
		{"percent comments", "g.txt", "% sym unweighted\n% 3 3\n0 1\n1 2\n", 3, 2, ""},
		{"konect extra columns", "g.txt", "1 2 1 100\n2 3 1 200 7\n3 4 1\n4 5 1 9\n", 5, 4, "columns 4..4 are ignored"},
		{"two lines", "g.txt", "3 3 3\n1 2 1\n", 3, 1, ""}, // 3 3 is a self-loop; ids 1..3
		{"weighted", "g.wel", "0 1 5\n1 2 6\n2 0 7\n", 3, 3, ""},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.file)
			os.WriteFile(path, []byte(c.data), 0o644)
			g := mustLoad(t, path, DefaultOptions())
			if g.NumVertices() != c.v || g.NumArcs() != c.arcs || !strings.Contains(g.Origin.Note, c.note) {
				t.Errorf("V=%d arcs=%d note %q, want %d %d %q", g.NumVertices(), g.NumArcs(), g.Origin.Note, c.v, c.arcs, c.note)
			}
		})
	}
}

// TestErrorLineAcrossChunks checks the line counting of the chunked parser: with comments,
// blank lines, CRLF and a header, the bad line is named whatever the chunk size (lines then
// straddle chunk boundaries, and the header reader merges chunks to look ahead).
func TestErrorLineAcrossChunks(t *testing.T) {
	type tc struct {
		name, file string
		data       string
		line       int64
		want       string
	}
	var cases []tc
	body := func(head string, good func(i int) string, bad string, badAt, total int, crlf bool) (string, int64) {
		var b strings.Builder
		b.WriteString(head)
		line := int64(strings.Count(head, "\n"))
		eol := "\n"
		if crlf {
			eol = "\r\n"
		}
		var at int64
		for i := 0; i < total; i++ {
			switch {
			case i == badAt:
				b.WriteString(bad + eol)
				at = line + 1
			case i%17 == 5:
				b.WriteString("# comment " + fmt.Sprint(i) + eol)
			case i%23 == 7:
				b.WriteString(eol)
			default:
				b.WriteString(good(i) + eol)
			}
			line++
		}
		return b.String(), at
	}
	for _, badAt := range []int{0, 1, 9, 10, 150, 399} {
		for _, crlf := range []bool{false, true} {
			sfx := fmt.Sprintf(" bad@%d crlf=%v", badAt, crlf)
			d, at := body("# a header comment\nFromNodeId\tToNodeId\n", func(i int) string { return fmt.Sprintf("%d\t%d", i, i+1) }, "7\tx", badAt, 400, crlf)
			cases = append(cases, tc{"snap" + sfx, "g.txt", d, at, `found "x"`})
			d, at = body("", func(i int) string { return fmt.Sprintf("%d %d %d", i, i+1, i%9) }, "7 8 -3", badAt, 400, crlf)
			cases = append(cases, tc{"wel" + sfx, "g.wel", d, at, `negative weight "-3"`})
			d, at = body("%%MatrixMarket matrix coordinate pattern general\n% c\n500 500 400\n", func(i int) string { return fmt.Sprintf("%d %d", i+1, i+2) }, "7 501", badAt, 400, crlf)
			d = strings.ReplaceAll(d, "#", "%")
			cases = append(cases, tc{"mtx" + sfx, "g.mtx", d, at, "vertex id 501 is out of range"})
			d, at = body("c x\np sp 500 400\n", func(i int) string { return fmt.Sprintf("a %d %d %d", i+1, i+2, i%9) }, "a 7 8", badAt, 400, crlf)
			d = strings.ReplaceAll(d, "#", "c")
			cases = append(cases, tc{"dimacs" + sfx, "g.gr", d, at, "missing weight"})
		}
	}
	dir := t.TempDir()
	defer func(c int) { chunkSize = c }(chunkSize)
	for _, c := range cases {
		path := filepath.Join(dir, c.file)
		os.WriteFile(path, []byte(c.data), 0o644)
		for _, chunk := range []int{4 << 20, 64, 19, 7} {
			chunkSize = chunk
			_, err := Load(context.Background(), path, DefaultOptions())
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != c.line || !strings.Contains(pe.Msg, c.want) {
				t.Errorf("%s chunk %d: got %v, want line %d: %s", c.name, chunk, err, c.line, c.want)
			}
		}
	}
}
