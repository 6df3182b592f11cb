package loader

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
)

// METIS graph files (the format of METIS, Chaco and the Walshaw archive): a header
// "N M [FMT [NCON]]", then one line per vertex listing its neighbours (1-based), each edge
// from both ends. FMT's digits say, from the right: edge weights, vertex weights (NCON of
// them), vertex sizes. Lines starting with '%' are comments; a blank line is a vertex with
// no neighbours.

func planMETIS(file string, h *headerReader, o *options) (*plan, error) {
	for {
		line, num, ok := h.nextLine()
		if !ok {
			return nil, fileErr(file, "no header: expected a METIS header \"N M [FMT [NCON]]\"")
		}
		t := bytes.TrimSpace(line)
		if isMMBanner(t) {
			return nil, lineErr(file, num, "a Matrix Market banner %q where a METIS header was expected: this is a Matrix Market file, say format=mtx", string(truncate(t, 60)))
		}
		if len(t) == 0 || t[0] == '%' {
			continue
		}
		f := strings.Fields(string(t))
		if what, say := grProblem(f); what != "" {
			return nil, lineErr(file, num, "a %s problem line %q where a METIS header was expected: this is a %s .gr file, say %s", what, string(truncate(t, 60)), what, say)
		}
		if len(f) < 2 || len(f) > 4 {
			return nil, lineErr(file, num, "expected the METIS header \"N M [FMT [NCON]]\", found %q", string(truncate(t, 80)))
		}
		n, ok1 := headerInt(f[0])
		m, ok2 := headerInt(f[1])
		if !ok1 || !ok2 {
			return nil, lineErr(file, num, "expected the METIS header \"N M [FMT [NCON]]\" with N and M non-negative integers, found %q", string(truncate(t, 80)))
		}
		if n > maxVertices {
			return nil, lineErr(file, num, "the header says %d vertices: at most %d fit in 32-bit ids", n, int64(maxVertices))
		}
		mf := &metisFormat{file: file, n: n}
		if len(f) >= 3 {
			fm := f[2]
			if len(fm) > 3 || strings.Trim(fm, "01") != "" {
				return nil, lineErr(file, num, "expected FMT of up to three 0/1 digits (sizes, vertex weights, edge weights), found %q", fm)
			}
			fm = strings.Repeat("0", 3-len(fm)) + fm
			mf.vsize, mf.ew = fm[0] == '1', fm[2] == '1'
			if fm[1] == '1' {
				mf.ncon = 1
			}
		}
		if len(f) == 4 {
			c, err := strconv.Atoi(f[3])
			if err != nil || c < 1 || c > 1<<16 {
				return nil, lineErr(file, num, "expected NCON, a positive integer, found %q", f[3])
			}
			if mf.ncon == 0 {
				return nil, lineErr(file, num, "NCON given but FMT %q says there are no vertex weights", f[2])
			}
			mf.ncon = c
		}
		p := &plan{format: "metis", n: n, entries: 2 * m, sizeLine: num, sizeWhat: "the header", directed: false,
			why: "METIS adjacency", paired: true, weighted: mf.ew, base: 1}
		if o.base >= 0 {
			p.base = o.base
		}
		mf.base = uint64(p.base)
		mf.keepW = mf.ew && o.weights.mode == "keep"
		p.parse = mf.parse
		p.prepare = func(c *chunk) {
			c.vbase = mf.lines
			k := metisVertexLines(c.data)
			lines := c.lines
			if len(c.data) > 0 && c.data[len(c.data)-1] != '\n' {
				lines++
			}
			mc := metisChunk{vbase: c.vbase, line: c.line}
			if k != lines {
				mc.comments = metisCommentLines(c.data, c.line, maxCommentLines-mf.comments)
				mf.comments += len(mc.comments)
				mc.lost = mf.comments >= maxCommentLines
			}
			mf.chunks = append(mf.chunks, mc)
			mf.lines += k
		}
		p.vertexLine = mf.vertexLine
		return p, nil
	}
}

type metisFormat struct {
	file     string
	n        int64
	vsize    bool // a vertex size leads each line
	ncon     int  // vertex weights after it
	ew       bool // each neighbour is followed by an edge weight
	keepW    bool
	base     uint64
	lines    int64 // vertex lines handed to chunks so far (prepare runs serially)
	chunks   []metisChunk
	comments int // comment lines remembered in chunks
}

// metisChunk locates a chunk's vertex lines: its first line, and its comment lines.
type metisChunk struct {
	vbase, line int64
	comments    []int64 // line numbers of its comment lines, in order
	lost        bool    // more comment lines than maxCommentLines: vertexLine gives up
}

// maxCommentLines bounds the comment lines remembered for locating vertices.
const maxCommentLines = 1 << 16

// metisCommentLines returns the numbers of the comment lines of data, whose first line is
// first: at most max of them.
func metisCommentLines(data []byte, first int64, max int) []int64 {
	var out []int64
	for num := first; len(data) > 0 && len(out) < max; num++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] == '%' {
			out = append(out, num)
		}
	}
	return out
}

// vertexLine returns the line of (0-based) vertex v's list, or 0 when it is not known.
func (f *metisFormat) vertexLine(v int64) int64 {
	i := sort.Search(len(f.chunks), func(i int) bool { return f.chunks[i].vbase > v }) - 1
	if i < 0 || f.chunks[i].lost {
		return 0
	}
	c := f.chunks[i]
	l := c.line + v - c.vbase
	for _, x := range c.comments {
		if x > l {
			break
		}
		l++
	}
	return l
}

// metisVertexLines counts the lines of data that are not comments.
func metisVertexLines(data []byte) int64 {
	var k int64
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		j := 0
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		if j == len(line) || line[j] != '%' {
			k++
		}
	}
	return k
}

// num parses a non-negative integer at data[i:] and the spaces after it.
func metisNum(data []byte, i int) (uint64, int, bool) {
	j := i
	var x uint64
	for j < len(data) {
		d := data[j] - '0'
		if d > 9 {
			break
		}
		if x < 1<<40 {
			x = x*10 + uint64(d)
		}
		j++
	}
	if j == i || (j < len(data) && data[j] != ' ' && data[j] != '\t' && data[j] != '\n' && data[j] != '\r') {
		return 0, j, false
	}
	for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\r') {
		j++
	}
	return x, j, true
}

func (f *metisFormat) parse(c *chunk, s *scratch) (*edgeBlock, chunkInfo, error) {
	var info chunkInfo
	data := c.data
	line := c.line
	v := c.vbase
	i := 0
	for i < len(data) {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
			i++
		}
		if i < len(data) && data[i] == '%' {
			for i < len(data) && data[i] != '\n' {
				i++
			}
			i++
			line++
			continue
		}
		for i < len(data) && data[i] == '\r' {
			i++
		}
		if v >= f.n {
			if i < len(data) && data[i] != '\n' {
				return nil, info, lineErr(f.file, line, "the header says %d vertices, but this line would be vertex %d: expected no more vertex lines", f.n, v+1)
			}
			i++
			line++
			v++
			continue
		}
		skip := f.ncon
		if f.vsize {
			skip++
		}
		for k := 0; k < skip; k++ {
			var ok bool
			if _, i, ok = metisNum(data, i); !ok {
				return nil, info, lineErr(f.file, line, "expected %d leading vertex size/weight value(s) (a non-negative integer), found %s", skip, token(data, i))
			}
		}
		for i < len(data) && data[i] != '\n' {
			x, j, ok := metisNum(data, i)
			if !ok {
				return nil, info, lineErr(f.file, line, "expected a neighbour id (a positive integer) on the line of vertex %d, found %s", v+1, token(data, i))
			}
			if x < f.base || x-f.base >= uint64(f.n) {
				return nil, info, lineErr(f.file, line, "neighbour id %d is out of range: the header says %d vertices, ids %d..%d", x, f.n, f.base, int64(f.base)+f.n-1)
			}
			i = j
			if f.ew {
				w, j, ok := metisNum(data, i)
				if !ok {
					if i >= len(data) || data[i] == '\n' {
						return nil, info, lineErr(f.file, line, "missing weight: FMT says every neighbour is followed by an edge weight")
					}
					if data[i] == '-' {
						return nil, info, lineErr(f.file, line, "negative weight %s: weights must be >= 0 (weights=drop ignores them)", token(data, i))
					}
					return nil, info, lineErr(f.file, line, "expected an edge weight (a non-negative integer), found %s", token(data, i))
				}
				if w > 1<<31-1 {
					return nil, info, lineErr(f.file, line, "weight %d is out of range (at most %d)", w, 1<<31-1)
				}
				i = j
				if f.keepW {
					s.w = append(s.w, int32(w))
				}
			}
			s.src = append(s.src, uint32(v))
			s.dst = append(s.dst, uint32(x-f.base))
			info.maxID = max(info.maxID, uint32(x-f.base))
		}
		i++
		line++
		v++
	}
	info.entries = int64(len(s.dst))
	info.vertices = v - c.vbase
	return s.block(f.keepW), info, nil
}
