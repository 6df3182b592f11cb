package loader

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/gworkbench/gworkbench/graph"
	"github.com/gworkbench/gworkbench/internal/safefile"
)

// The .gwg binary cache holds a built CSR as raw little-endian arrays, so that loading it is
// one read and a checksum:
//
//	offset  size  field
//	0       8     magic "GWGRAPH\x00"
//	8       4     version (1)
//	12      4     flags: bit 0 directed, bit 1 weighted, bit 2 labelled (sparse file ids)
//	16      8     V
//	24      8     arcs
//	32      8     metadata length in bytes (JSON: Origin and the cache key)
//	40      4     checksum: CRC-32 (IEEE) of bytes 0..39 followed by the CRC-32s (4 bytes
//	              little-endian each) of the 8 MiB segments of everything after byte 63
//	44      20    reserved, zero
//	64      ...   metadata, zero-padded to a multiple of 8
//	        8(V+1)            offsets (int64)
//	        4 arcs, pad to 8  neighbours (uint32)
//	        4 arcs, pad to 8  weights (int32), when weighted
//	        4 V, pad to 8     the file's id of each vertex (uint32, ascending), when labelled
//
// A file that fails any check (size, version, checksum, offsets, ids) is refused, never
// trusted; a cache that fails is rebuilt from its source.
const (
	gwgMagic   = "GWGRAPH\x00"
	gwgVersion = 1
	gwgHeader  = 64
)

var gwgCRC = crc32.IEEETable

// gwgSegment is the unit of the checksum: segments are checked in parallel.
const gwgSegment = 8 << 20

// gwgChecksum returns the checksum of a .gwg file: the CRC-32 of head followed by the CRC-32
// of each gwgSegment-byte segment of the concatenation of body, computed on all cores.
func gwgChecksum(head []byte, body [][]byte) uint32 {
	var total int64
	for _, b := range body {
		total += int64(len(b))
	}
	nseg := int((total + gwgSegment - 1) / gwgSegment)
	sums := make([]byte, 4*nseg)
	parallelFor(nseg, workers(), func(k int) {
		lo, hi := int64(k)*gwgSegment, min(int64(k+1)*gwgSegment, total)
		var c uint32
		var at int64
		for _, b := range body {
			blo, bhi := max(lo, at), min(hi, at+int64(len(b)))
			if blo < bhi {
				c = crc32.Update(c, gwgCRC, b[blo-at:bhi-at])
			}
			at += int64(len(b))
		}
		binary.LittleEndian.PutUint32(sums[4*k:], c)
	})
	return crc32.Update(crc32.Update(0, gwgCRC, head), gwgCRC, sums)
}

// gwgMeta is the JSON metadata of a .gwg file.
type gwgMeta struct {
	Key    string       `json:"key,omitempty"` // options and source stamp a cache was made with
	Origin graph.Origin `json:"origin"`
	IDBase uint32       `json:"id_base,omitempty"` // graph.IDs.Base
}

func isGWG(head []byte) bool { return bytes.HasPrefix(head, []byte(gwgMagic)) }

func pad8(n int64) int64 { return (n + 7) &^ 7 }

// WriteGWG saves g as a .gwg file at path (atomically: a temporary file renamed into place,
// so a reader never sees half a file).
func WriteGWG(path string, g *graph.CSR) error { return writeGWG(path, g, "") }

func writeGWG(path string, g *graph.CSR, key string) error {
	meta, err := json.Marshal(gwgMeta{Key: key, Origin: g.Origin, IDBase: g.IDs.Base})
	if err != nil {
		return fmt.Errorf("loader: %s: %w", path, err)
	}
	metaLen := int64(len(meta))
	var hdr [gwgHeader]byte
	copy(hdr[:], gwgMagic)
	binary.LittleEndian.PutUint32(hdr[8:], gwgVersion)
	var flags uint32
	if g.Directed {
		flags |= 1
	}
	if g.Weights != nil {
		flags |= 2
	}
	if g.IDs.Labels != nil {
		flags |= 4
	}
	binary.LittleEndian.PutUint32(hdr[12:], flags)
	binary.LittleEndian.PutUint64(hdr[16:], uint64(g.NumVertices()))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(g.NumArcs()))
	binary.LittleEndian.PutUint64(hdr[32:], uint64(metaLen))
	pieces := [][]byte{
		meta, make([]byte, pad8(metaLen)-metaLen),
		graph.Int64Bytes(g.Offsets),
		graph.Uint32Bytes(g.Neighbors), make([]byte, pad8(4*g.NumArcs())-4*g.NumArcs()),
	}
	if g.Weights != nil {
		pieces = append(pieces, graph.Int32Bytes(g.Weights), make([]byte, pad8(4*g.NumArcs())-4*g.NumArcs()))
	}
	if l := g.IDs.Labels; l != nil {
		pieces = append(pieces, graph.Uint32Bytes(l), make([]byte, pad8(4*int64(len(l)))-4*int64(len(l))))
	}
	binary.LittleEndian.PutUint32(hdr[40:], gwgChecksum(hdr[:40], pieces))

	err = safefile.Write(path, func(w *bufio.Writer) error {
		_, err := w.Write(hdr[:])
		for _, p := range pieces {
			if err == nil && len(p) > 0 {
				_, err = w.Write(p)
			}
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("loader: writing %s: %w", path, err)
	}
	return nil
}

// ReadGWG loads a .gwg file. It is read into memory, not memory-mapped: a mapped file that is
// truncated or overwritten while the graph is in use would kill the process (SIGBUS).
func ReadGWG(path string) (*graph.CSR, error) {
	g, _, err := readGWGFile(path)
	return g, err
}

func readGWGFile(path string) (*graph.CSR, string, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if fi.Size() < gwgHeader {
		head := make([]byte, 2)
		if k, _ := io.ReadFull(f, head); k == 2 && head[0] == 0x1f && head[1] == 0x8b {
			return nil, "", fileErr(path, "a gzip-compressed .gwg cache: decompress it first")
		}
		return nil, "", offsetErr(path, fi.Size(), "truncated .gwg file: %d bytes, shorter than its %d-byte header", fi.Size(), gwgHeader)
	}
	if err := checkMemory(path, fi.Size()); err != nil {
		return nil, "", err
	}
	// The arrays are used in place: read into 8-byte aligned memory, on all cores.
	buf := make([]int64, (fi.Size()+7)/8)
	data := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), fi.Size())
	nseg := int((fi.Size() + gwgSegment - 1) / gwgSegment)
	errs := make([]error, nseg)
	parallelFor(nseg, workers(), func(k int) {
		lo, hi := int64(k)*gwgSegment, min(int64(k+1)*gwgSegment, fi.Size())
		_, errs[k] = f.ReadAt(data[lo:hi], lo)
	})
	for _, err := range errs {
		if err == io.EOF {
			return nil, "", offsetErr(path, fi.Size(), "truncated .gwg file: it shrank while it was read")
		}
		if err != nil {
			return nil, "", fmt.Errorf("loader: %s: %w", path, err)
		}
	}
	if data[0] == 0x1f && data[1] == 0x8b {
		return nil, "", fileErr(path, "a gzip-compressed .gwg cache: decompress it first")
	}
	return decodeGWG(data, path)
}

// readGWGFrom reads a .gwg stream.
func readGWGFrom(r io.Reader, name string) (*graph.CSR, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("loader: %s: %w", name, err)
	}
	// The arrays are used in place: copy to 8-byte aligned memory.
	buf := make([]int64, (len(data)+7)/8)
	al := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), len(data))
	copy(al, data)
	g, _, err := decodeGWG(al, name)
	return g, err
}

// decodeGWG checks data as a .gwg file and returns the graph viewing it (no copy).
func decodeGWG(data []byte, name string) (*graph.CSR, string, error) {
	bad := func(off int64, format string, args ...any) error {
		return offsetErr(name, off, "corrupt .gwg file: "+format, args...)
	}
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return nil, "", fileErr(name, ".gwg files are read on little-endian machines only")
	}
	if len(data) < gwgHeader || !isGWG(data) {
		return nil, "", bad(0, "expected the magic %q", gwgMagic)
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != gwgVersion {
		return nil, "", bad(8, "version %d, this build reads version %d", v, gwgVersion)
	}
	flags := binary.LittleEndian.Uint32(data[12:])
	if flags&^7 != 0 {
		return nil, "", bad(12, "unknown flags %#x", flags)
	}
	n := binary.LittleEndian.Uint64(data[16:])
	arcs := binary.LittleEndian.Uint64(data[24:])
	metaLen := binary.LittleEndian.Uint64(data[32:])
	if n > maxVertices || arcs > math.MaxInt64/16 || metaLen > 1<<30 {
		return nil, "", bad(16, "impossible counts: V=%d arcs=%d metadata=%d bytes", n, arcs, metaLen)
	}
	weighted := flags&2 != 0
	offAt := gwgHeader + pad8(int64(metaLen))
	nbAt := offAt + 8*(int64(n)+1)
	wtAt := nbAt + pad8(4*int64(arcs))
	end := wtAt
	if weighted {
		end += pad8(4 * int64(arcs))
	}
	lbAt := end
	if flags&4 != 0 {
		end += pad8(4 * int64(n))
	}
	if int64(len(data)) != end {
		return nil, "", bad(int64(len(data)), "file is %d bytes, its header promises %d (V=%d, arcs=%d): truncated or extended", len(data), end, n, arcs)
	}
	// Checksum while the arrays are checked.
	var crc uint32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		crc = gwgChecksum(data[:40], [][]byte{data[gwgHeader:]})
	}()
	off := unsafe.Slice((*int64)(unsafe.Pointer(&data[offAt])), n+1)
	var nb []uint32
	if arcs > 0 {
		nb = unsafe.Slice((*uint32)(unsafe.Pointer(&data[nbAt])), arcs)
	} else {
		nb = []uint32{}
	}
	var wt []int32
	if weighted && arcs > 0 {
		wt = unsafe.Slice((*int32)(unsafe.Pointer(&data[wtAt])), arcs)
	} else if weighted {
		wt = []int32{}
	}
	verr := validateCSR(off, nb, n)
	var labels []uint32
	if flags&4 != 0 && n > 0 {
		labels = unsafe.Slice((*uint32)(unsafe.Pointer(&data[lbAt])), n)
		if verr == "" {
			for i := 1; i < len(labels); i++ {
				if labels[i] <= labels[i-1] {
					verr = fmt.Sprintf("vertex ids not ascending at vertex %d", i)
					break
				}
			}
		}
	}
	wg.Wait()
	if want := binary.LittleEndian.Uint32(data[40:]); crc != want {
		return nil, "", bad(40, "checksum mismatch (stored %08x, computed %08x)", want, crc)
	}
	if verr != "" {
		return nil, "", bad(offAt, "%s", verr)
	}
	if msg := validateLists(off, nb, wt, flags&1 == 0); msg != "" {
		return nil, "", bad(nbAt, "%s", msg)
	}
	var meta gwgMeta
	if err := json.Unmarshal(data[gwgHeader:gwgHeader+int64(metaLen)], &meta); err != nil {
		return nil, "", bad(gwgHeader, "metadata: %v", err)
	}
	g := &graph.CSR{Offsets: off, Neighbors: nb, Weights: wt, Directed: flags&1 != 0, Origin: meta.Origin}
	g.IDs = graph.IDs{Base: meta.IDBase, Labels: labels}
	g.Origin.FromCache = true
	return g, meta.Key, nil
}

// validateCSR checks offsets and neighbour ids on all cores, returning a description of the
// first problem found or "".
func validateCSR(off []int64, nb []uint32, n uint64) string {
	if off[0] != 0 || off[n] != int64(len(nb)) {
		return fmt.Sprintf("offsets run from %d to %d, expected 0 to %d", off[0], off[n], len(nb))
	}
	w := workers()
	vr := splitRange(int(n), w*4)
	msgs := make([]string, len(vr)-1)
	parallelFor(len(vr)-1, w, func(p int) {
		for v := vr[p]; v < vr[p+1]; v++ {
			if off[v+1] < off[v] {
				msgs[p] = fmt.Sprintf("offsets decrease at vertex %d", v)
				return
			}
		}
	})
	for _, m := range msgs {
		if m != "" {
			return m
		}
	}
	ar := splitRange(len(nb), w*4)
	bad := make([]int64, len(ar)-1)
	parallelFor(len(ar)-1, w, func(p int) {
		var mx uint32
		for _, u := range nb[ar[p]:ar[p+1]] {
			mx = max(mx, u)
		}
		bad[p] = -1
		if ar[p] < ar[p+1] && uint64(mx) >= n {
			bad[p] = int64(mx)
		}
	})
	for _, b := range bad {
		if b >= 0 {
			return fmt.Sprintf("neighbour id %d out of range (V=%d)", b, n)
		}
	}
	return ""
}

// validateLists checks what the engines rely on beyond valid ids: sorted neighbour lists,
// non-negative weights and, for a graph flagged undirected, symmetric arcs (with equal
// weights). It returns a description of the first problem found or "".
func validateLists(off []int64, nb []uint32, wt []int32, undirected bool) string {
	w := workers()
	vr := splitRange(len(off)-1, w*4)
	msgs := make([]string, len(vr)-1)
	sums := make([]uint64, len(vr)-1)
	parallelFor(len(vr)-1, w, func(p int) {
		if wt != nil {
			for i := off[vr[p]]; i < off[vr[p+1]]; i++ {
				if wt[i] < 0 {
					msgs[p] = fmt.Sprintf("negative weight %d on arc %d: weights must be >= 0", wt[i], i)
					return
				}
			}
		}
		bad := -1
		if undirected {
			sums[p], bad = arcSum(off, nb, wt, vr[p], vr[p+1])
		} else {
			bad = firstUnsorted(off, nb, vr[p], vr[p+1])
		}
		if bad >= 0 {
			msgs[p] = fmt.Sprintf("the neighbours of vertex %d are not sorted", bad)
		}
	})
	var total uint64
	for p, m := range msgs {
		if m != "" {
			return m
		}
		total += sums[p]
	}
	if undirected && total != 0 {
		u, v, ww, _ := firstAsymmetric(off, nb, wt)
		return "flagged undirected: " + asymmetryMsg(u, v, ww, wt != nil, 0)
	}
	return ""
}

// firstUnsorted returns the first of vertices lo..hi-1 whose list is not sorted, or -1.
func firstUnsorted(off []int64, nb []uint32, lo, hi int) int {
	for u := lo; u < hi; u++ {
		for i := off[u] + 1; i < off[u+1]; i++ {
			if nb[i] < nb[i-1] {
				return u
			}
		}
	}
	return -1
}

// cacheKey is the text a cache must have been made with to be reused: the options that shape
// the graph and the source's size and content hash (a modification time can be set back, and
// an edit can keep the size).
func cacheKey(o *options, f *os.File, size int64) (string, error) {
	h, err := contentHash(f, size)
	if err != nil {
		return "", err
	}
	return o.key() + " source-size=" + strconv.FormatInt(size, 10) + " source-crc=" + strconv.FormatUint(uint64(h), 16), nil
}

// contentHash returns the CRC-32 of the CRC-32s of the file's gwgSegment-byte segments, read
// on all cores: a few GB/s from the page cache, far less than parsing the file.
func contentHash(f *os.File, size int64) (uint32, error) {
	nseg := int((size + gwgSegment - 1) / gwgSegment)
	sums := make([]byte, 4*nseg)
	errs := make([]error, nseg)
	var pool sync.Pool
	parallelFor(nseg, workers(), func(k int) {
		buf, _ := pool.Get().([]byte)
		if buf == nil {
			buf = make([]byte, gwgSegment)
		}
		defer pool.Put(buf)
		lo, hi := int64(k)*gwgSegment, min(int64(k+1)*gwgSegment, size)
		if _, err := f.ReadAt(buf[:hi-lo], lo); err != nil {
			errs[k] = err
			return
		}
		binary.LittleEndian.PutUint32(sums[4*k:], crc32.Checksum(buf[:hi-lo], gwgCRC))
	})
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return crc32.Checksum(sums, gwgCRC), nil
}

// tryCache returns the cached graph when cachePath is newer than src and was made with the
// same options; otherwise nil and why the cache is not used ("" when there is none). Load
// then rebuilds it and says so.
func tryCache(cachePath, src string, o *options) (*graph.CSR, string) {
	ci, err := os.Stat(cachePath)
	if err != nil {
		return nil, ""
	}
	si, err := os.Stat(src)
	if err != nil {
		return nil, ""
	}
	if ci.ModTime().Before(si.ModTime()) {
		return nil, "stale cache " + filepath.Base(cachePath) + " not used (the source is newer)"
	}
	g, key, err := readGWGFile(cachePath)
	if err != nil {
		return nil, "cache " + filepath.Base(cachePath) + " not used: " + strings.TrimPrefix(err.Error(), "loader: ")
	}
	other := "cache " + filepath.Base(cachePath) + " not used (made from another version of the source or with other options)"
	f, si, err := openRegular(src)
	if err != nil {
		return nil, other
	}
	defer f.Close()
	if want, err := cacheKey(o, f, si.Size()); err != nil || key != want {
		return nil, other
	}
	g.Origin.Note = joinNote(g.Origin.Note, "loaded from cache "+filepath.Base(cachePath)+" (made "+ci.ModTime().Format(time.DateTime)+")")
	return g, ""
}
