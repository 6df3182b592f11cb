package loader

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Formats lists the names format= accepts: the file formats Load reads (each also
// gzip-compressed), and gr for a .gr file of either kind.
func Formats() []string {
	return []string{"mtx", "snap", "el", "wel", "dimacs", "pace", "gr", "metis", "gwg"}
}

// plan is what a format's header says about the body that follows.
type plan struct {
	format   string // mtx, snap, el, wel, dimacs, pace, metis
	parse    chunkParser
	prepare  func(c *chunk) // optional serial pass over each chunk before parsing (METIS)
	n        int64          // vertices stated by the header; -1: largest id + 1
	entries  int64          // data lines promised by the header; -1: no promise
	sizeLine int64          // the header line that makes the promises
	sizeWhat string         // "the size line", "the problem line", "the header"
	directed bool           // the format's own direction
	why      string         // what the direction follows from, for Origin
	paired   bool           // every edge is listed from both ends (METIS)
	weighted bool           // the file carries weights
	base     int
	note     string
	// vertexLine returns the line of vertex v's adjacency list (METIS), 0 when not known.
	vertexLine func(v int64) int64
}

// formatByExt maps a file name (without .gz) to a format, or "".
func formatByExt(name string) string {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	switch filepath.Ext(name) {
	case ".mtx", ".mm":
		return "mtx"
	case ".gr":
		return "gr"
	case ".graph", ".metis":
		return "metis"
	case ".el":
		return "el"
	case ".wel":
		return "wel"
	case ".gwg":
		return "gwg"
	case ".txt", ".tsv", ".csv", ".edges", ".edgelist", ".snap", ".e", ".dat":
		return "snap"
	}
	return ""
}

// formatByContent guesses a format from the first non-blank line.
func formatByContent(h *headerReader) string {
	line, _, ok := h.peekLine()
	if !ok {
		return "snap"
	}
	t := bytes.TrimSpace(line)
	switch {
	case bytes.HasPrefix(bytes.ToLower(t), []byte("%%matrixmarket")):
		return "mtx"
	case bytes.HasPrefix(t, []byte("p ")), bytes.HasPrefix(t, []byte("c ")), bytes.Equal(t, []byte("c")):
		return "gr"
	}
	return "snap"
}

// fields splits a header line on spaces, tabs and commas.
func fields(line []byte) []string {
	return strings.FieldsFunc(string(line), func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\r' })
}

// headerInt parses a header count.
func headerInt(s string) (int64, bool) {
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil && v >= 0
}

// planFor reads the header of a file of the given format (mtx, snap, el, wel, gr, dimacs,
// pace, metis) and returns the plan for its body.
func planFor(format, file string, h *headerReader, o *options) (*plan, error) {
	switch format {
	case "mtx":
		return planMTX(file, h, o)
	case "gr", "dimacs", "pace":
		return planGR(format, file, h, o)
	case "metis":
		return planMETIS(file, h, o)
	}
	return planEdgeList(format, file, h, o)
}

// lineFormatFor returns the body parser settings shared by the line formats.
func (o *options) lineFormat(file string, p *plan, lf lineFormat) *lineFormat {
	lf.file = file
	lf.weighted = p.weighted
	lf.keepW = p.weighted && o.weights.mode == "keep"
	if o.base >= 0 {
		p.base = o.base
	}
	lf.base = uint64(p.base)
	if p.n >= 0 {
		lf.limit = uint64(p.n)
	}
	return &lf
}

func planEdgeList(format, file string, h *headerReader, o *options) (*plan, error) {
	p := &plan{format: format, n: -1, entries: -1, directed: true, base: 0}
	extra := false
	p.why = "edge list default"
	if format == "el" || format == "wel" {
		p.why = "GAPBS ." + format + " default"
	}
	// DIMACS/PACE comment lines ("c ...") seen before the first edge: one may be a header,
	// more mean a .gr file read as an edge list.
	var cLines []int64
	var cFirst string
	// Skip comments; a first line that does not start with a number is a header ("id_1,id_2").
	// The headers of the other text formats are refused with the format to say instead: read
	// as edges they would give a graph with a spurious vertex or edge.
	for {
		line, num, ok := h.peekLine()
		if !ok {
			if len(cLines) > 0 {
				return nil, lineErr(file, cLines[0], "a DIMACS/PACE comment line (\"c ...\") where a %s edge list was expected, and no edges: a .gr file? say format=dimacs or format=pace", format)
			}
			return nil, fileErr(file, "no edges: expected lines \"U V\" (or \"U V W\")")
		}
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] == '%' && isMMBanner(t) {
			return nil, lineErr(file, num, "a Matrix Market banner %q where a %s edge list was expected: this is a Matrix Market file, say format=mtx; read as edges, its size line would become an edge", string(truncate(t, 60)), format)
		}
		if len(t) == 0 || t[0] == '#' || t[0] == '%' {
			h.nextLine()
			continue
		}
		f := fields(t)
		if len(f) > 0 && f[0] == "p" {
			if what, say := grProblem(f); what != "" {
				return nil, lineErr(file, num, "a %s problem line %q where a %s edge list was expected: this is a %s .gr file, say %s; read as edges, its 1-based ids would be taken as 0-based", what, string(truncate(t, 60)), format, what, say)
			}
		}
		if len(f) > 0 && f[0] == "c" {
			if len(cLines) == 0 {
				cFirst = string(truncate(t, 40))
			}
			cLines = append(cLines, num)
			h.nextLine()
			continue
		}
		if len(cLines) > 1 || len(cLines) == 1 && p.note != "" {
			return nil, lineErr(file, cLines[0], "DIMACS/PACE comment lines (\"c ...\") where a %s edge list was expected: expected \"U V\" (or \"U V W\"); a .gr file without its problem line? (format=dimacs or format=pace)", format)
		}
		if len(cLines) == 1 {
			// One "c ..." line before the edges: a header, as before.
			p.note = "header line " + strconv.FormatInt(cLines[0], 10) + " skipped: " + strconv.Quote(cFirst)
			cLines = nil
		}
		if c := t[0]; (c < '0' || c > '9') && c != '-' && c != '+' && p.note == "" {
			if !bytes.ContainsAny(t, "0123456789") || looksLikeHeader(t) {
				p.note = "header line " + strconv.FormatInt(num, 10) + " skipped: " + strconv.Quote(string(truncate(t, 40)))
				h.nextLine()
				continue
			}
		}
		nf := len(f)
		if nf >= 2 {
			if err := checkShape(format, file, h, num, t, nf); err != nil {
				return nil, err
			}
		}
		switch {
		case nf < 2:
			return nil, lineErr(file, num, "expected an edge \"U V\" (or \"U V W\"), found %d field", nf)
		case nf > 3 && format != "snap":
			return nil, lineErr(file, num, "expected an edge \"U V\" or \"U V W\", found %d fields", nf)
		case format == "el" && nf == 3:
			return nil, lineErr(file, num, "expected 2 fields \"U V\" in a .el file, found 3 (a weighted edge list is .wel, or say format=wel)")
		case format == "wel" && nf == 2:
			return nil, lineErr(file, num, "missing weight: expected \"U V W\" in a .wel file, found 2 fields")
		}
		p.weighted = nf >= 3
		if nf > 3 {
			// KONECT and temporal SNAP files add columns (a timestamp, ...): U V W, rest ignored.
			extra = true
			p.note = joinNote(p.note, fmt.Sprintf("line %d has %d columns: the third is read as the weight, columns 4..%d are ignored", num, nf, nf))
		}
		break
	}
	shape := "U V"
	if p.weighted {
		shape = "U V W"
	}
	lf := o.lineFormat(file, p, lineFormat{comments: "#%", comma: true, realW: true, shape: shape, extra: extra})
	p.parse = lf.parse
	return p, nil
}

// isMMBanner reports whether a (trimmed) line is a Matrix Market banner.
func isMMBanner(t []byte) bool {
	return len(t) >= 14 && bytes.EqualFold(t[:14], []byte("%%matrixmarket"))
}

// grProblem tells a DIMACS-family problem line ("p sp N M", "p tw N M", "p edge N M", ...)
// from a header line that happens to start with "p": it returns the family and the format=
// to say, or "" when f is not a problem line.
func grProblem(f []string) (what, say string) {
	if len(f) < 3 || f[0] != "p" {
		return "", ""
	}
	if _, err := strconv.ParseFloat(f[1], 64); err == nil {
		return "", ""
	}
	if _, ok := headerInt(f[len(f)-1]); !ok {
		return "", ""
	}
	switch f[1] {
	case "sp":
		return "DIMACS", "format=dimacs"
	case "tw":
		return "PACE", "format=pace"
	}
	return "DIMACS", "format=dimacs for \"p sp\" or format=pace for \"p tw\" (other problems are not read)"
}

// shapeLookahead is how many data lines after the first checkShape compares with it, and
// shapeBytes how far after it they may start.
const (
	shapeLookahead = 8
	shapeBytes     = 64 << 10
)

// checkShape compares the first data line of an edge list (line num, nf fields) with the
// data lines after it. An edge list has the same fields on every line; where the parser
// would refuse most of the following lines, the first line is to blame: a size line (a
// Matrix Market file without its banner, "ROWS COLS ENTRIES") or a METIS header followed by
// adjacency lines of varying length. A single odd line later on is left to the parser, which
// names it. The lines compared are the same whatever the chunk size.
func checkShape(format, file string, h *headerReader, num int64, first []byte, nf int) error {
	rejects := func(k int) bool {
		if format == "snap" && nf > 3 {
			return k < 3 // extra columns are ignored, the weight is needed
		}
		return k != nf
	}
	// scan calls each for the data lines (line number, trimmed text) after the first one,
	// up to the limits, and reports whether it reached them.
	scan := func(d []byte, each func(ln int64, t []byte)) bool {
		i := bytes.IndexByte(d, '\n')
		if i < 0 {
			return false
		}
		d = d[i+1:]
		ln, seen, at := num, 0, 0
		for len(d) > 0 {
			if at >= shapeBytes || seen == shapeLookahead {
				return true
			}
			ln++
			line := d
			if i := bytes.IndexByte(d, '\n'); i >= 0 {
				line, d = d[:i], d[i+1:]
				at += i + 1
			} else {
				d = nil
			}
			t := bytes.TrimSpace(line)
			if len(t) == 0 || t[0] == '#' || t[0] == '%' {
				continue
			}
			seen++
			if each != nil {
				each(ln, t)
			}
		}
		return seen == shapeLookahead || at >= shapeBytes
	}
	var counts []int
	var lines []int64
	scan(h.lookahead(func(d []byte) bool { return scan(d, nil) }), func(ln int64, t []byte) {
		counts = append(counts, len(fields(t)))
		lines = append(lines, ln)
	})
	if len(counts) < 2 {
		return nil
	}
	bad, same := 0, true
	for _, k := range counts {
		if rejects(k) {
			bad++
		}
		same = same && k == counts[0]
	}
	if 2*bad < len(counts) {
		return nil
	}
	ft := string(truncate(first, 60))
	if same {
		guess := "a header or size line?"
		if nf == 3 && counts[0] == 2 {
			guess = "a Matrix Market size line \"ROWS COLS ENTRIES\" (format=mtx, and the file needs its %%MatrixMarket banner)?"
		} else if nf <= 4 {
			guess = "a size line (Matrix Market: format=mtx) or a METIS header (format=metis)?"
		}
		return lineErr(file, num, "%q has %d fields, but the %d data lines after it (lines %d..%d) have %d: an edge list has the same fields on every line; %s", ft, nf, len(counts), lines[0], lines[len(lines)-1], counts[0], guess)
	}
	lo, hi := counts[0], counts[0]
	for _, k := range counts {
		lo, hi = min(lo, k), max(hi, k)
	}
	return lineErr(file, num, "after %q, the data lines %d..%d have from %d to %d fields: an edge list has the same fields on every line; a METIS adjacency file (header \"N M\", one line of neighbours per vertex)? say format=metis", ft, lines[0], lines[len(lines)-1], lo, hi)
}

// looksLikeHeader reports whether a first line is a column header such as "id_1,id_2" or
// "FromNodeId ToNodeId": its first field is not a number.
func looksLikeHeader(t []byte) bool {
	f := fields(t)
	if len(f) == 0 {
		return false
	}
	_, err := strconv.ParseFloat(f[0], 64)
	return err != nil
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

func planMTX(file string, h *headerReader, o *options) (*plan, error) {
	line, num, ok := h.nextLine()
	if !ok {
		return nil, fileErr(file, "empty file: expected the Matrix Market banner \"%%%%MatrixMarket matrix coordinate ...\"")
	}
	f := strings.Fields(strings.ToLower(string(line)))
	if len(f) == 0 || f[0] != "%%matrixmarket" {
		return nil, lineErr(file, num, "expected the Matrix Market banner \"%%%%MatrixMarket matrix coordinate FIELD SYMMETRY\", found %s", token(line, 0))
	}
	if len(f) != 5 || f[1] != "matrix" {
		return nil, lineErr(file, num, "expected the banner \"%%%%MatrixMarket matrix coordinate FIELD SYMMETRY\" (5 words), found %q", string(truncate(line, 80)))
	}
	if f[2] != "coordinate" {
		return nil, lineErr(file, num, "expected a coordinate (sparse) matrix, found %q: dense arrays are not graphs", f[2])
	}
	p := &plan{format: "mtx", base: 1}
	switch f[3] {
	case "pattern":
	case "integer":
		p.weighted = true
	case "real", "double":
		p.weighted = true
	case "complex":
		return nil, lineErr(file, num, "expected field pattern, integer or real, found complex: complex weights are not supported")
	default:
		return nil, lineErr(file, num, "expected field pattern, integer or real, found %q", f[3])
	}
	switch f[4] {
	case "general":
		p.directed, p.why = true, "mtx general"
	case "symmetric":
		p.directed, p.why = false, "mtx "+f[4]
	case "skew-symmetric":
		// The mirrored entry of a_ij is -a_ij: a negative weight.
		if p.weighted && o.weights.mode == "keep" {
			return nil, lineErr(file, num, "a skew-symmetric matrix gives each mirrored entry the weight -w, and weights must be >= 0: load it with weights=drop (or another weights= choice)")
		}
		p.directed, p.why = false, "mtx "+f[4]
	case "hermitian":
		return nil, lineErr(file, num, "expected symmetry general or symmetric, found hermitian (a complex matrix)")
	default:
		return nil, lineErr(file, num, "expected symmetry general, symmetric or skew-symmetric, found %q", f[4])
	}
	for {
		line, num, ok = h.nextLine()
		if !ok {
			return nil, fileErr(file, "the file ends before the size line \"ROWS COLS ENTRIES\"")
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '%' {
			continue
		}
		sf := fields(t)
		if len(sf) != 3 {
			return nil, lineErr(file, num, "expected the size line \"ROWS COLS ENTRIES\", found %q", string(truncate(t, 80)))
		}
		rows, ok1 := headerInt(sf[0])
		cols, ok2 := headerInt(sf[1])
		nnz, ok3 := headerInt(sf[2])
		if !ok1 || !ok2 || !ok3 {
			return nil, lineErr(file, num, "expected the size line \"ROWS COLS ENTRIES\" (three non-negative integers), found %q", string(truncate(t, 80)))
		}
		if rows > maxVertices || cols > maxVertices {
			return nil, lineErr(file, num, "the size line says %d x %d: at most %d vertices fit in 32-bit ids", rows, cols, int64(maxVertices))
		}
		p.n, p.entries, p.sizeLine, p.sizeWhat = max(rows, cols), nnz, num, "the size line"
		if rows != cols {
			p.note = "rectangular matrix " + sf[0] + " x " + sf[1] + ": " + strconv.FormatInt(p.n, 10) + " vertices"
		}
		break
	}
	shape := "I J"
	if p.weighted {
		shape = "I J VALUE"
	}
	lf := o.lineFormat(file, p, lineFormat{comments: "%", shape: shape, realW: true, bound: "the size line says " + strconv.FormatInt(p.n, 10) + " rows/columns"})
	p.parse = lf.parse
	return p, nil
}

// planGR reads the header of a .gr file: DIMACS shortest paths ("p sp N M", arcs "a U V W")
// or PACE treewidth ("p tw N M", edges "U V").
func planGR(format, file string, h *headerReader, o *options) (*plan, error) {
	for {
		line, num, ok := h.nextLine()
		if !ok {
			return nil, fileErr(file, "no problem line: expected \"p sp N M\" (DIMACS) or \"p tw N M\" (PACE)")
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == 'c' && (len(t) == 1 || t[1] == ' ' || t[1] == '\t') {
			continue
		}
		f := fields(t)
		if len(f) == 0 || f[0] != "p" {
			return nil, lineErr(file, num, "expected the problem line \"p sp N M\" (DIMACS) or \"p tw N M\" (PACE) before any data, found %s", token(t, 0))
		}
		if len(f) != 4 || (f[1] != "sp" && f[1] != "tw") {
			return nil, lineErr(file, num, "expected the problem line \"p sp N M\" (DIMACS) or \"p tw N M\" (PACE), found %q", string(truncate(t, 80)))
		}
		n, ok1 := headerInt(f[2])
		m, ok2 := headerInt(f[3])
		if !ok1 || !ok2 {
			return nil, lineErr(file, num, "expected the problem line \"p %s N M\" with two non-negative integers, found %q", f[1], string(truncate(t, 80)))
		}
		if n > maxVertices {
			return nil, lineErr(file, num, "the problem line says %d vertices: at most %d fit in 32-bit ids", n, int64(maxVertices))
		}
		p := &plan{n: n, entries: m, sizeLine: num, sizeWhat: "the problem line", base: 1}
		if f[1] == "sp" {
			if format == "pace" {
				return nil, lineErr(file, num, "format=pace expects \"p tw N M\", found \"p sp\" (a DIMACS shortest-path file)")
			}
			p.format, p.directed, p.why, p.weighted = "dimacs", true, "DIMACS arcs", true
			lf := o.lineFormat(file, p, lineFormat{prefix: 'a', comments: "c", shape: "a U V W", bound: "the problem line says " + f[2] + " vertices"})
			p.parse = lf.parse
			return p, nil
		}
		if format == "dimacs" {
			return nil, lineErr(file, num, "format=dimacs expects \"p sp N M\", found \"p tw\" (a PACE file)")
		}
		p.format, p.directed, p.why = "pace", false, "PACE edges"
		lf := o.lineFormat(file, p, lineFormat{comments: "c", shape: "U V", bound: "the problem line says " + f[2] + " vertices"})
		p.parse = lf.parse
		return p, nil
	}
}
