package loader

import (
	"bytes"
	"context"
	"io"
	"sync"
)

// chunkSize is how much input one parse task gets (cut back to a line boundary). Tests make
// it small to exercise the chunk boundaries.
var chunkSize = 4 << 20

// maxLine is the longest line a graph file may have (a METIS adjacency line of a vertex of
// several million neighbours fits). A longer line (a file of one line of spaces, a binary
// file without line ends) is refused when it is reached, instead of growing a buffer to the
// size of the input. Tests make it small.
var maxLine = 256 << 20

// longLineError is the read error of a line longer than maxLine (or than memory allows).
type longLineError struct {
	line   int64
	length int64
	avail  int64 // the memory available, when that is what the line ran out of; else 0
}

func (e *longLineError) Error() string { return "line too long" }

// chunk is a run of whole lines of the (decompressed) input.
type chunk struct {
	seq   int
	data  []byte
	line  int64 // number of data's first line, 1-based
	off   int64 // offset of data[0] in the input
	buf   []byte
	lines int64 // newlines in data
	vbase int64 // METIS: vertex lines before this chunk
}

// chunker cuts a reader into chunks of whole lines, reusing a few buffers, so a file of any
// size streams through a fixed amount of memory.
type chunker struct {
	r     io.Reader
	pool  chan []byte
	carry []byte // the partial last line of the previous read
	line  int64
	off   int64
	seq   int
	done  bool
	err   error // the read error that ended the input, if any
}

func newChunker(r io.Reader, buffers int) *chunker {
	c := &chunker{r: r, pool: make(chan []byte, buffers), line: 1}
	for i := 0; i < buffers; i++ {
		c.pool <- nil
	}
	return c
}

// release returns a chunk's buffer for reuse.
func (c *chunker) release(ch *chunk) {
	if ch != nil && ch.buf != nil {
		c.pool <- ch.buf
		ch.buf, ch.data = nil, nil
	}
}

// next returns the next chunk, or nil at the end of the input (c.err then says whether the
// input ended with a read error). A chunk ends with '\n' unless it holds the input's last line.
func (c *chunker) next() *chunk {
	if c.done {
		return nil
	}
	buf := <-c.pool
	if want := max(chunkSize, 2*len(c.carry)); cap(buf) < want {
		buf = make([]byte, want)
	}
	buf = buf[:cap(buf)]
	n := copy(buf, c.carry)
	c.carry = c.carry[:0]
	for {
		for n < len(buf) {
			k, err := c.r.Read(buf[n:])
			n += k
			if err != nil {
				c.done = true
				if err != io.EOF {
					c.err = err
					// Drop the partial last line: what was read of it is not trustworthy.
					if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
						n = i + 1
					} else {
						n = 0
					}
				}
				break
			}
		}
		if c.done {
			break
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			c.carry = append(c.carry, buf[i+1:n]...)
			n = i + 1
			break
		}
		// One line longer than the buffer: grow it, within limits.
		if int64(len(buf)) >= int64(maxLine) {
			c.done, c.err = true, &longLineError{line: c.line, length: int64(n)}
			n = 0
			break
		}
		if avail := availableMemory(); int64(2*len(buf)) > avail {
			c.done, c.err = true, &longLineError{line: c.line, length: int64(n), avail: avail}
			n = 0
			break
		}
		nb := make([]byte, 2*len(buf))
		copy(nb, buf[:n])
		buf = nb
	}
	if n == 0 {
		c.pool <- buf
		return nil
	}
	ch := &chunk{seq: c.seq, data: buf[:n], line: c.line, off: c.off, buf: buf}
	ch.lines = int64(bytes.Count(ch.data, []byte{'\n'}))
	c.seq++
	c.line += ch.lines
	c.off += int64(n)
	return ch
}

// headerReader hands out the first lines of the input one at a time, for the serial parse of
// a format's header; what it has not handed out becomes the first body chunk. A line it
// returns is valid until the next call.
type headerReader struct {
	c   *chunker
	cur *chunk
}

func (h *headerReader) fill() bool {
	for h.cur == nil || len(h.cur.data) == 0 {
		if h.cur != nil {
			h.c.release(h.cur)
		}
		h.cur = h.c.next()
		if h.cur == nil {
			return false
		}
	}
	return true
}

// nextLine returns the next line (without its line end) and its number, or ok == false at
// the end of the input.
func (h *headerReader) nextLine() (line []byte, num int64, ok bool) {
	if !h.fill() {
		return nil, 0, false
	}
	d := h.cur.data
	if i := bytes.IndexByte(d, '\n'); i >= 0 {
		line, h.cur.data = d[:i], d[i+1:]
		h.cur.lines--
	} else {
		line, h.cur.data = d, d[len(d):]
	}
	h.cur.off += int64(len(d) - len(h.cur.data))
	num = h.cur.line
	h.cur.line++
	return bytes.TrimSuffix(line, []byte{'\r'}), num, true
}

// peekLine returns the next line without consuming it.
func (h *headerReader) peekLine() (line []byte, num int64, ok bool) {
	if !h.fill() {
		return nil, 0, false
	}
	d := h.cur.data
	if i := bytes.IndexByte(d, '\n'); i >= 0 {
		d = d[:i]
	}
	return bytes.TrimSuffix(d, []byte{'\r'}), h.cur.line, true
}

// lookahead returns the unread input from the start of the next line, at least until
// enough says it is enough or the input ends; it consumes nothing. The current chunk grows
// into the chunks after it as needed (whole lines always), so what a header check sees does
// not depend on the chunk size.
func (h *headerReader) lookahead(enough func(data []byte) bool) []byte {
	if !h.fill() {
		return nil
	}
	for !enough(h.cur.data) {
		nx := h.c.next()
		if nx == nil {
			break
		}
		merged := make([]byte, 0, len(h.cur.data)+len(nx.data))
		merged = append(append(merged, h.cur.data...), nx.data...)
		// The current chunk keeps its place in the buffer pool, with the merged buffer; the
		// next chunk's buffer goes back.
		h.cur.buf, h.cur.data = merged, merged
		h.cur.lines += nx.lines
		h.c.release(nx)
	}
	return h.cur.data
}

// rest returns what is left of the current chunk as the first body chunk (or nil).
func (h *headerReader) rest() *chunk {
	if h.cur == nil || len(h.cur.data) == 0 {
		if h.cur != nil {
			h.c.release(h.cur)
		}
		h.cur = nil
		return nil
	}
	ch := h.cur
	h.cur = nil
	return ch
}

// chunkParser parses one chunk of body lines into a block of edges.
type chunkParser func(c *chunk, s *scratch) (*edgeBlock, chunkInfo, error)

// chunkInfo is what a chunk's parse learnt besides its edges.
type chunkInfo struct {
	entries  int64  // data lines (edges, arcs or matrix entries) read
	maxID    uint32 // largest vertex id seen (0-based)
	minID    uint32 // smallest vertex id seen (line formats only)
	realW    bool   // real-valued weights were rounded
	vertices int64  // METIS: vertex lines read
}

// parseChunks parses the input's body on all cores: one goroutine reads chunks (first, then
// the chunker's), the others parse them. It returns the blocks and infos in input order, or
// the error nearest the start of the input.
func parseChunks(ctx context.Context, c *chunker, first *chunk, p *plan, prog *progress, mem *memWatch) ([]*edgeBlock, []chunkInfo, error) {
	parse := p.parse
	w := workers()
	jobs := make(chan *chunk, w)
	var mu sync.Mutex
	var blocks []*edgeBlock
	var infos []chunkInfo
	errSeq, firstErr := -1, error(nil)
	setErr := func(seq int, err error) {
		mu.Lock()
		if errSeq < 0 || seq < errSeq {
			errSeq, firstErr = seq, err
		}
		mu.Unlock()
	}
	failedBefore := func(seq int) bool {
		mu.Lock()
		defer mu.Unlock()
		return errSeq >= 0 && errSeq < seq
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &scratch{}
			for ch := range jobs {
				seq := ch.seq
				if failedBefore(seq) || ctx.Err() != nil {
					c.release(ch)
					continue
				}
				b, info, err := parse(ch, s)
				prog.add(int64(len(ch.data)))
				end := ch.off + int64(len(ch.data))
				c.release(ch)
				if err == nil && !mem.add(b, info.entries) {
					err = mem.err(end)
				}
				if err != nil {
					setErr(seq, err)
					continue
				}
				mu.Lock()
				for len(blocks) <= seq {
					blocks = append(blocks, nil)
					infos = append(infos, chunkInfo{})
				}
				blocks[seq], infos[seq] = b, info
				mu.Unlock()
			}
		}()
	}
	next := first
	seq := 0
	for {
		if next == nil {
			next = c.next()
		}
		if next == nil || ctx.Err() != nil {
			break
		}
		next.seq = seq
		seq++
		if p.prepare != nil {
			p.prepare(next)
		}
		if failedBefore(next.seq) {
			c.release(next)
			break
		}
		jobs <- next
		next = nil
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if c.err != nil && (errSeq < 0 || errSeq >= seq) {
		return nil, nil, readError(c.err)
	}
	if firstErr != nil {
		return nil, nil, firstErr
	}
	// Chunks with no data lines still hold a (possibly empty) block.
	for len(blocks) < seq {
		blocks = append(blocks, nil)
		infos = append(infos, chunkInfo{})
	}
	out := blocks[:0]
	outInfo := infos[:0]
	for i, b := range blocks {
		if b == nil {
			b = &edgeBlock{}
		}
		out = append(out, b)
		outInfo = append(outInfo, infos[i])
	}
	return out, outInfo, nil
}

// readError wraps a read error of the input.
func readError(err error) error {
	return &readErr{err}
}

type readErr struct{ err error }

func (e *readErr) Error() string { return e.err.Error() }
func (e *readErr) Unwrap() error { return e.err }
