package loader

import (
	"io"
	"sync/atomic"
)

// memWatch stops a parse whose edges, as read so far, would already need more memory to build
// than was available when it started. A gzip bomb (a small file that decompresses to
// gigabytes of edges) or an input far larger than its size said is refused while it is read,
// with a sentence, instead of running the process out of memory in the build.
type memWatch struct {
	name     string
	avail    int64 // bytes available when the parse started
	perEntry int64 // bytes of CSR each input entry will need (its arcs and their weights)
	used     atomic.Int64
	raw      *countingReader // the compressed input, nil when not compressed
}

// add counts a parsed block and its share of the CSR; it returns false once the total passes
// what is available.
func (m *memWatch) add(b *edgeBlock, entries int64) bool {
	if m == nil {
		return true
	}
	return m.used.Add(b.bytes()+entries*m.perEntry) <= m.avail
}

// err says what was read and what it would need.
func (m *memWatch) err(read int64) error {
	from := ""
	if m.raw != nil {
		from = " (decompressed from " + fmtBytes(m.raw.n.Load()) + " of gzip)"
	}
	return fileErr(m.name, "after %s of data%s, the edges read already need about %s of memory to build, but only %s is available: the graph does not fit",
		fmtBytes(read), from, fmtBytes(m.used.Load()), fmtBytes(m.avail))
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}
