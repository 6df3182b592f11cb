package loader

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gworkbench/gworkbench/graph"
)

// Load reads the graph at path, in the format its extension or content says (opt.Format
// overrides), gzip-compressed or not. With opt.Cache it reuses path.gwg while that is newer
// than path and was made with the same options, and otherwise writes it.
func Load(ctx context.Context, path string, opt Options) (*graph.CSR, error) {
	o, err := opt.check()
	if err != nil {
		return nil, err
	}
	format := o.format
	if format == "" {
		format = formatByExt(path)
	}
	if format == "gwg" {
		g, err := ReadGWG(path)
		if err != nil {
			return nil, err
		}
		return reshape(ctx, g, o)
	}
	var cachePath, cacheNote string
	if o.cache {
		cachePath = path + ".gwg"
		g, note := tryCache(cachePath, path, o)
		if g != nil {
			return g, nil
		}
		cacheNote = note
	}
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	g, err := load(ctx, f, path, fi.Size(), o, format)
	if err != nil {
		return nil, err
	}
	if o.cache {
		key, err := cacheKey(o, f, fi.Size())
		if err != nil {
			return nil, fmt.Errorf("loader: %s: %w", path, err)
		}
		g.Origin.Note = joinNote(g.Origin.Note, writeCache(cachePath, g, key, cacheNote))
	}
	return g, nil
}

// openRegular opens a regular file for reading. Anything else is refused with a sentence
// before it is opened: opening a named pipe waits for a writer, and reading a pipe or a device
// may never end.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			pe.Op = "open"
		}
		return nil, nil, fmt.Errorf("loader: %w", err)
	}
	var kind string
	switch m := fi.Mode(); {
	case m.IsDir():
		return nil, nil, fileErr(path, "is a directory, expected a graph file")
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case !m.IsRegular():
		kind = "not a regular file"
	}
	if kind != "" {
		return nil, nil, fileErr(path, "is %s, expected a graph file: save what it produces to a file and load that", kind)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("loader: %w", err)
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fileErr(path, "changed while it was opened: expected a regular graph file")
	}
	return f, fi, nil
}

// writeCache writes the .gwg cache of a graph just read from its text file and returns the
// note that says so (after why, the reason an existing cache was not used, if any). A cache
// that cannot be written (a read-only directory, a full disk) does not fail the load: the
// note says why instead. The cache itself keeps the graph's Origin as it was before this note.
func writeCache(cachePath string, g *graph.CSR, key, why string) string {
	shown := cachePath
	if abs, err := filepath.Abs(cachePath); err == nil {
		shown = abs
	}
	if err := writeGWG(cachePath, g, key); err != nil {
		cause := err.Error()
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &le):
			cause = le.Err.Error()
		case errors.As(err, &pe):
			cause = pe.Err.Error()
			if pe.Op == "open" {
				cause = "cannot create a file in " + filepath.Dir(shown) + ": " + cause
			}
		}
		return joinNote(why, "cache "+shown+" not written ("+cause+"); loaded from the text file")
	}
	return joinNote(why, "wrote cache "+shown)
}

// LoadReader reads a graph from r; name is used in messages and for detecting the format.
func LoadReader(ctx context.Context, r io.Reader, name string, opt Options) (*graph.CSR, error) {
	o, err := opt.check()
	if err != nil {
		return nil, err
	}
	format := o.format
	if format == "" {
		format = formatByExt(name)
	}
	return load(ctx, r, name, 0, o, format)
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// load reads, parses and builds. size is the input's size in bytes (0: unknown).
func load(ctx context.Context, r io.Reader, name string, size int64, o *options, format string) (*graph.CSR, error) {
	prog := newProgress(o.progress, "load "+filepath.Base(name))
	defer prog.finish()
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(3)
	if len(head) == 0 {
		return nil, fileErr(name, "empty file: expected a graph (%s)", formatList())
	}
	var in io.Reader = br
	var raw *countingReader
	gz := len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b
	if gz {
		raw = &countingReader{r: br}
		zr, err := gzip.NewReader(raw)
		if err != nil {
			return nil, offsetErr(name, 0, "corrupt gzip header: %v", err)
		}
		in = bufio.NewReaderSize(zr, 1<<16)
	}
	tb := in.(*bufio.Reader)
	head, err := tb.Peek(4096)
	if len(head) == 0 {
		if err != nil && err != io.EOF {
			return nil, gzipError(name, err, 1, 0)
		}
		return nil, fileErr(name, "empty file: the gzip stream holds no data, expected a graph (%s)", formatList())
	}
	if isGWG(head) {
		if gz {
			return nil, fileErr(name, "a gzip-compressed .gwg cache: decompress it first")
		}
		return readGWGFrom(tb, name)
	}
	if format == "gwg" {
		return nil, offsetErr(name, 0, "corrupt .gwg file: expected the magic %q", gwgMagic)
	}
	if len(head) >= 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf {
		tb.Discard(3) // UTF-8 byte order mark
		head = head[3:]
	}
	if off, b := binaryAt(head); off >= 0 {
		return nil, offsetErr(name, off, "binary data (byte 0x%02x), expected a text graph file (%s)", b, formatList())
	}
	if size > 0 && !gz {
		prog.phaseBytes("parse", size)
	} else {
		prog.phaseBytes("parse", 0)
	}
	ch := newChunker(tb, workers()+2)
	h := &headerReader{c: ch}
	if format == "" {
		format = formatByContent(h)
	}
	p, err := planFor(format, name, h, o)
	if err != nil {
		// A header cut short by a read error is reported as the read error; a bad line that
		// was read in full is reported as itself (it comes first in the input).
		var pe *ParseError
		if ch.err != nil && (!errors.As(err, &pe) || pe.Line == 0) {
			return nil, gzipError(name, ch.err, ch.line, ch.off)
		}
		return nil, corruptFirst(ctx, name, gz, ch, err)
	}
	first := h.rest()
	if err := checkBeforeParse(name, size, gz, first, p, o); err != nil {
		ch.release(first)
		return nil, err
	}
	blocks, infos, err := parseChunks(ctx, ch, first, p, prog, newMemWatch(name, p, o, raw))
	if err != nil {
		var re *readErr
		if errors.As(err, &re) {
			return nil, gzipError(name, re.err, ch.line, ch.off)
		}
		return nil, corruptFirst(ctx, name, gz, ch, err)
	}
	return finish(ctx, name, blocks, infos, p, o, prog)
}

// finish checks the parsed body against the header and builds the graph.
func finish(ctx context.Context, name string, blocks []*edgeBlock, infos []chunkInfo, p *plan, o *options, prog *progress) (*graph.CSR, error) {
	var entries, vlines int64
	var maxID uint32
	minID := uint32(maxVertices)
	realW := false
	for _, in := range infos {
		entries += in.entries
		vlines += in.vertices
		maxID = max(maxID, in.maxID)
		if in.entries > 0 {
			minID = min(minID, in.minID)
		}
		realW = realW || in.realW
	}
	if p.format == "metis" && vlines < p.n {
		return nil, lineErr(name, p.sizeLine, "the header says %d vertices, but the file has %d vertex lines", p.n, vlines)
	}
	if p.entries >= 0 && entries != p.entries {
		what := "entries"
		switch p.format {
		case "dimacs":
			what = "arcs"
		case "pace":
			what = "edges"
		case "metis":
			return nil, lineErr(name, p.sizeLine, "the header says %d edges, so the adjacency lines should hold %d neighbours (each edge from both ends), but they hold %d", p.entries/2, p.entries, entries)
		}
		return nil, lineErr(name, p.sizeLine, "%s says %d %s, but the file has %d", p.sizeWhat, p.entries, what, entries)
	}
	n := p.n
	ids := graph.IDs{Base: uint32(p.base)}
	if n < 0 {
		if entries == 0 {
			return nil, fileErr(name, "no edges: expected lines \"U V\" (or \"U V W\") after the comments")
		}
		n = int64(maxID) + 1
		// A SNAP edge list names its vertices by the ids that appear in it (as SNAP and
		// NetworkX read it): sparse ids are compacted, and ids map back. base= keeps the ids
		// as numbers; GAPBS .el/.wel files keep 0..max as GAPBS does.
		if p.format == "snap" && o.base < 0 {
			// Its bitmap and ranks: 12 bytes per 64 ids up to the largest.
			if err := checkMemory(name, 12*(int64(maxID)/64+1)); err != nil {
				return nil, err
			}
			n, ids = compactIDs(blocks, minID, maxID)
		}
	}
	// Direction: the format's unless told.
	directed := p.directed
	why := p.why
	switch o.direction {
	case "directed":
		directed = true
		why = "told: directed"
		if !p.directed {
			why = "told: directed (each " + p.why + " edge gives both arcs)"
		}
	case "undirected":
		directed = false
		why = "told: undirected"
	}
	// A paired format lists both arcs of every edge already: it is built as listed and then
	// checked to be symmetric.
	symmetrize := (!directed || !p.directed) && !p.paired
	weighted := p.weighted && o.weights.mode == "keep"
	arcs := entries
	if symmetrize {
		arcs *= 2
	}
	arcBytes := int64(4)
	if weighted {
		arcBytes = 8
	}
	if err := checkMemory(name, 8*(n+1)+arcs*arcBytes); err != nil {
		return nil, err
	}
	g, st, err := buildCSR(ctx, blocks, buildSpec{n: int(n), symmetrize: symmetrize, keepLoops: o.keepLoops, keepDups: o.keepDups, weighted: weighted, prog: prog})
	if err != nil {
		return nil, err
	}
	g.Directed = directed
	g.IDs = ids
	if p.paired && !symmetric(g.Offsets, g.Neighbors, g.Weights) {
		u, v, w, _ := firstAsymmetric(g.Offsets, g.Neighbors, g.Weights)
		line := p.sizeLine
		if p.vertexLine != nil {
			if l := p.vertexLine(int64(u)); l > 0 {
				line = l
			}
		}
		return nil, lineErr(name, line, "%s: a METIS file lists every edge from both ends", asymmetryMsg(u, v, w, g.Weights != nil, p.base))
	}
	dups := st.dupArcs
	if symmetrize || p.paired {
		dups = st.dupArcs / 2
	}
	g.Origin = graph.Origin{
		Path:              name,
		Format:            p.format,
		Base:              p.base,
		DirectionAssumed:  why,
		Symmetrized:       p.directed && !directed,
		SelfLoopsRemoved:  st.loops,
		DuplicatesRemoved: dups,
		Entries:           entries,
		Note:              p.note,
	}
	if ids.Labels != nil {
		g.Origin.Base = int(ids.Labels[0])
		g.Origin.Compacted = int64(maxID) + 1 - n
	} else if ids.Base != uint32(p.base) {
		g.Origin.Base = int(ids.Base)
	}
	if p.n < 0 && p.base == 0 && o.base < 0 && ids.Identity() && minID > 0 && minID < maxVertices {
		g.Origin.Note = joinNote(g.Origin.Note, fmt.Sprintf("the smallest id is %d, so ids 0..%d have no edges (base=1 reads 1-based ids)", minID, minID-1))
	}
	if realW && weighted {
		g.Origin.Note = joinNote(g.Origin.Note, "real weights rounded to integers")
	}
	applyWeights(g, o.weights, o.seed)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

// newMemWatch returns the watch on the memory a parse of p's body needs.
func newMemWatch(name string, p *plan, o *options, raw *countingReader) *memWatch {
	per := int64(4)
	if p.weighted && o.weights.mode == "keep" {
		per = 8
	}
	if !p.directed || o.direction == "undirected" {
		per *= 2
	}
	return &memWatch{name: name, avail: availableMemory(), perEntry: per, raw: raw}
}

// checkBeforeParse refuses, from the file size and the first chunk's line length, a file
// whose graph would clearly not fit in memory, before reading it all.
func checkBeforeParse(name string, size int64, gz bool, first *chunk, p *plan, o *options) error {
	if size <= 0 || first == nil || first.lines < 16 {
		return nil
	}
	if gz {
		size *= 4 // a typical edge-list compression ratio
	}
	perLine := max(int64(len(first.data))/max(first.lines, 1), 4)
	edges := size / perLine
	arcs := edges
	if !p.directed || o.direction == "undirected" {
		arcs *= 2
	}
	weighted := p.weighted && o.weights.mode == "keep"
	need := buildBytes(max(p.n, 0), edges, arcs, 2, weighted)
	if need > availableMemory() {
		return checkMemory(fmt.Sprintf("%s (%s, about %d edges)", name, fmtBytes(size), edges), need)
	}
	return nil
}

// binaryAt returns the offset and value of the first byte that cannot be in a text graph
// file (NUL, or control bytes other than tab and line ends), or -1.
func binaryAt(head []byte) (int64, byte) {
	for i, b := range head {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != '\v' {
			return int64(i), b
		}
	}
	return -1, 0
}

// corruptFirst returns the error of a compressed input that failed to parse. Corrupt deflate
// data often decompresses to garbage before the decompressor notices (the checksum comes at
// the end), so a line that does not parse may be the first sign of a damaged file: the rest of
// the stream (up to gzipDrain bytes) is decompressed, and a decompression error is reported
// instead of the line.
func corruptFirst(ctx context.Context, name string, gz bool, ch *chunker, err error) error {
	var pe *ParseError
	var ll *longLineError
	if !gz || !errors.As(err, &pe) || pe.Line == 0 {
		return err
	}
	rerr := ch.err
	buf := make([]byte, 1<<16)
	for n := int64(0); rerr == nil && n < gzipDrain && ctx.Err() == nil; {
		k, err := ch.r.Read(buf)
		n += int64(k)
		if err == io.EOF {
			break
		}
		rerr = err
	}
	if rerr == nil || errors.As(rerr, &ll) {
		return err
	}
	what := "corrupt gzip data: " + rerr.Error()
	switch {
	case errors.Is(rerr, io.ErrUnexpectedEOF):
		what = "truncated gzip stream"
	case errors.Is(rerr, gzip.ErrChecksum):
		what = "corrupt gzip data: checksum mismatch"
	}
	return fileErr(name, "%s (the data before it decompressed to text that fails at line %d: %s)", what, pe.Line, pe.Msg)
}

// gzipDrain is how much more of a compressed input corruptFirst decompresses.
const gzipDrain = 1 << 30

// gzipError turns a read error into a located message.
func gzipError(name string, err error, line, off int64) error {
	var ce flate.CorruptInputError
	var ll *longLineError
	switch {
	case errors.As(err, &ll) && ll.avail > 0:
		return lineErr(name, ll.line, "this line is longer than %s and reading more of it needs more memory than the %s available: expected lines of a graph file", fmtBytes(ll.length), fmtBytes(ll.avail))
	case errors.As(err, &ll):
		return lineErr(name, ll.line, "this line is longer than %s, the most a graph file's line may have: is it a graph file?", fmtBytes(ll.length))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return lineErr(name, line, "truncated gzip stream: the data ends inside this line (after %d bytes of uncompressed data)", off)
	case errors.Is(err, gzip.ErrChecksum):
		return lineErr(name, line, "corrupt gzip data: checksum mismatch after %d bytes of uncompressed data", off)
	case errors.As(err, &ce), errors.Is(err, gzip.ErrHeader):
		return lineErr(name, line, "corrupt gzip data near this line: %v", err)
	}
	return fmt.Errorf("loader: %s: read: %w", name, err)
}

func formatList() string {
	return "Matrix Market .mtx, SNAP/GAPBS edge list, DIMACS/PACE .gr, METIS .graph, .gwg; optionally .gz"
}

// reshape applies to an already built graph (a .gwg file) the options that still apply: a
// direction change and weights. Self-loops and duplicates were settled when it was built.
func reshape(ctx context.Context, g *graph.CSR, o *options) (*graph.CSR, error) {
	if o.direction == "undirected" && g.Directed {
		n := g.NumVertices()
		var blocks []*edgeBlock
		for _, r := range splitRangeByArcs(g.Offsets, max(1, int(g.NumArcs()/genBlock))) {
			b := &edgeBlock{dst: g.Neighbors[g.Offsets[r[0]]:g.Offsets[r[1]]]}
			if g.Weights != nil {
				b.w = g.Weights[g.Offsets[r[0]]:g.Offsets[r[1]]]
			}
			for v := r[0]; v < r[1]; v++ {
				if d := g.Offsets[v+1] - g.Offsets[v]; d > 0 {
					b.runs = append(b.runs, srcRun{uint32(v), uint32(d)})
				}
			}
			blocks = append(blocks, b)
		}
		h, st, err := buildCSR(ctx, blocks, buildSpec{n: n, symmetrize: true, keepLoops: true, keepDups: o.keepDups, weighted: g.Weights != nil})
		if err != nil {
			return nil, err
		}
		h.Origin, h.IDs = g.Origin, g.IDs
		h.Origin.DirectionAssumed = "told: undirected"
		h.Origin.Symmetrized = true
		h.Origin.DuplicatesRemoved += st.dupArcs / 2
		g = h
	} else if o.direction == "directed" && !g.Directed {
		h := &graph.CSR{Offsets: g.Offsets, Neighbors: g.Neighbors, Weights: g.Weights, Directed: true, IDs: g.IDs, Origin: g.Origin}
		h.Origin.DirectionAssumed = "told: directed (each edge gives both arcs)"
		g = h
	}
	applyWeights(g, o.weights, o.seed)
	return g, nil
}

// splitRangeByArcs cuts the vertices into about parts ranges [lo, hi) of similar arc counts,
// never splitting a vertex's list (a run must fit in uint32).
func splitRangeByArcs(off []int64, parts int) [][2]int {
	b := graph.SplitByArcs(off, parts)
	out := make([][2]int, 0, len(b)-1)
	for i := 0; i+1 < len(b); i++ {
		out = append(out, [2]int{b[i], b[i+1]})
	}
	return out
}
