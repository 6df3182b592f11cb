package loader

import (
	"math"
	"strconv"
	"unsafe"
)

// maxVertices is the most vertices a graph can have: ids are uint32 and V itself must fit.
const maxVertices = 1<<32 - 1

// lineFormat parses the body of the line-per-edge formats: SNAP and GAPBS edge lists,
// DIMACS arcs ("a U V W"), PACE edges and Matrix Market entries. One line holds, after an
// optional prefix letter, two vertex ids and an optional weight, separated by spaces or tabs
// (and commas where allowed). The parser is hand-written and allocation-free per edge.
type lineFormat struct {
	file     string
	prefix   byte   // 'a' for DIMACS arcs, else 0
	comments string // bytes that start a comment line
	comma    bool   // ',' also separates fields
	weighted bool   // a third field holds the weight
	keepW    bool   // parse and keep the weight (else the field is skipped)
	realW    bool   // weights may be real numbers (rounded)
	extra    bool   // fields after the weight are allowed and ignored
	base     uint64 // id base: ids in the file are base.. and become 0..
	limit    uint64 // ids (0-based) must be below limit; 0: no header bound
	shape    string // the expected line, for messages: "U V", "a U V W", ...
	bound    string // says where limit comes from, for messages
}

func (f *lineFormat) isComment(c byte) bool {
	for i := 0; i < len(f.comments); i++ {
		if f.comments[i] == c {
			return true
		}
	}
	return false
}

func (f *lineFormat) isSep(c byte) bool { return c == ' ' || c == '\t' || (c == ',' && f.comma) }

// parse parses one chunk of body lines.
func (f *lineFormat) parse(c *chunk, s *scratch) (*edgeBlock, chunkInfo, error) {
	var info chunkInfo
	data := c.data
	n := len(data)
	line := c.line
	i := 0
	var maxID uint32
	minID := uint32(maxVertices)
	lim := uint64(maxVertices)
	if f.limit > 0 {
		lim = f.limit
	}
	base := f.base
	pre := 0 // bytes of prefix ("a ") before the first field
	if f.prefix != 0 {
		pre = 2
	}
	for i < n {
		// Fast path: "U V\n" or "U V W\n" (after the prefix) with single separators and plain
		// integers. Anything else (and every error) goes to the general path below, from the
		// line start.
		if i+pre < n && data[i+pre]-'0' <= 9 && (pre == 0 || data[i] == f.prefix && data[i+1] == ' ') {
			j := i + pre
			i0 := j
			var u, v, w uint64
			for j < n && data[j]-'0' <= 9 {
				u = u*10 + uint64(data[j]-'0')
				j++
			}
			if j-i0 > 10 || j >= n || !f.isSep(data[j]) {
				goto slow
			}
			j++
			k := j
			for k < n && data[k]-'0' <= 9 {
				v = v*10 + uint64(data[k]-'0')
				k++
			}
			if k == j || k-j > 10 || k >= n {
				goto slow
			}
			if f.weighted {
				if !f.isSep(data[k]) {
					goto slow
				}
				k++
				j = k
				for k < n && data[k]-'0' <= 9 {
					w = w*10 + uint64(data[k]-'0')
					k++
				}
				if k == j || k-j > 10 || k >= n || w > math.MaxInt32 {
					goto slow
				}
			}
			if data[k] == '\r' && k+1 < n {
				k++
			}
			if data[k] != '\n' || u < base || v < base || u-base >= lim || v-base >= lim {
				goto slow
			}
			u, v = u-base, v-base
			s.src = append(s.src, uint32(u))
			s.dst = append(s.dst, uint32(v))
			if f.keepW {
				s.w = append(s.w, int32(w))
			}
			maxID = max(maxID, uint32(u), uint32(v))
			minID = min(minID, uint32(u), uint32(v))
			i = k + 1
			line++
			continue
		}
	slow:
		for i < n && (data[i] == ' ' || data[i] == '\t') {
			i++
		}
		if i == n {
			break
		}
		ch := data[i]
		if ch == '\n' {
			i++
			line++
			continue
		}
		if ch == '\r' && (i+1 == n || data[i+1] == '\n') {
			i += 2
			line++
			continue
		}
		if f.isComment(ch) {
			for i < n && data[i] != '\n' {
				i++
			}
			i++
			line++
			continue
		}
		if f.prefix != 0 {
			if ch != f.prefix || i+1 >= n || (data[i+1] != ' ' && data[i+1] != '\t') {
				return nil, info, lineErr(f.file, line, "expected an arc line %q or a comment, found %s", f.shape, token(data, i))
			}
			i++
			for i < n && (data[i] == ' ' || data[i] == '\t') {
				i++
			}
		}
		u, j, err := f.id(data, i, line, 1)
		if err != nil {
			return nil, info, err
		}
		if j, err = f.sep(data, j, line, 1); err != nil {
			return nil, info, err
		}
		v, j, err := f.id(data, j, line, 2)
		if err != nil {
			return nil, info, err
		}
		i = j
		if f.weighted {
			if i, err = f.sep(data, i, line, 2); err != nil {
				return nil, info, err
			}
			if f.keepW {
				var w int32
				var real bool
				if w, i, real, err = f.weight(data, i, line); err != nil {
					return nil, info, err
				}
				info.realW = info.realW || real
				s.w = append(s.w, w)
			} else {
				for i < n && !f.isSep(data[i]) && data[i] != '\n' && data[i] != '\r' {
					i++
				}
			}
			if f.extra {
				for i < n && data[i] != '\n' {
					i++
				}
			}
		}
		for i < n && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || (data[i] == ',' && f.comma)) {
			i++
		}
		if i < n && data[i] != '\n' {
			return nil, info, lineErr(f.file, line, "expected the end of the line after %q, found %s", f.shape, token(data, i))
		}
		i++
		line++
		s.src = append(s.src, u)
		s.dst = append(s.dst, v)
		maxID = max(maxID, u, v)
		minID = min(minID, u, v)
	}
	info.entries = int64(len(s.dst))
	info.maxID = maxID
	info.minID = minID
	return s.block(f.keepW && f.weighted), info, nil
}

// id parses the field-th vertex id at data[i:].
func (f *lineFormat) id(data []byte, i int, line int64, field int) (uint32, int, error) {
	j := i
	var x uint64
	for j < len(data) {
		d := data[j] - '0'
		if d > 9 {
			break
		}
		x = x*10 + uint64(d)
		j++
	}
	if j == i || (j < len(data) && !f.isSep(data[j]) && data[j] != '\n' && data[j] != '\r') {
		if j == i && (i >= len(data) || data[i] == '\n' || data[i] == '\r') {
			return 0, j, lineErr(f.file, line, "expected %q, found only %d field(s)", f.shape, field-1)
		}
		return 0, j, lineErr(f.file, line, "expected a vertex id (a non-negative integer) as field %d of %q, found %s", field, f.shape, token(data, i))
	}
	if j-i > 12 {
		return 0, j, lineErr(f.file, line, "vertex id %s is out of range (at most %d)", truncate(data[i:j], 24), uint64(maxVertices-1)+f.base)
	}
	if x < f.base {
		return 0, j, lineErr(f.file, line, "vertex id %d is below the id base %d (ids in this file start at %d; base=0 reads it 0-based)", x, f.base, f.base)
	}
	x -= f.base
	if f.limit > 0 && x >= f.limit {
		return 0, j, lineErr(f.file, line, "vertex id %d is out of range: %s, ids %d..%d", x+f.base, f.bound, f.base, f.limit-1+f.base)
	}
	if x >= maxVertices {
		return 0, j, lineErr(f.file, line, "vertex id %d is out of range (at most %d)", x+f.base, uint64(maxVertices-1)+f.base)
	}
	return uint32(x), j, nil
}

// sep skips the separator after field got (at least one separator, and a field after it).
func (f *lineFormat) sep(data []byte, i int, line int64, got int) (int, error) {
	j := i
	comma := false
	for j < len(data) && f.isSep(data[j]) {
		if data[j] == ',' {
			if comma {
				return j, lineErr(f.file, line, "expected field %d of %q, found an empty field", got+1, f.shape)
			}
			comma = true
		}
		j++
	}
	if j == len(data) || data[j] == '\n' || data[j] == '\r' {
		if got == 2 && f.weighted {
			return j, lineErr(f.file, line, "missing weight: expected %q, found %d fields", f.shape, got)
		}
		return j, lineErr(f.file, line, "expected %q, found only %d field(s)", f.shape, got)
	}
	return j, nil
}

// weight parses a weight at data[i:]: a non-negative integer, or (rounded) real number.
func (f *lineFormat) weight(data []byte, i int, line int64) (int32, int, bool, error) {
	j := i
	neg := false
	if j < len(data) && (data[j] == '-' || data[j] == '+') {
		neg = data[j] == '-'
		j++
	}
	start := j
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
	end := j < len(data) && !f.isSep(data[j]) && data[j] != '\n' && data[j] != '\r'
	if end || j == start {
		// Not a plain integer: a real number, or garbage.
		k := i
		for k < len(data) && !f.isSep(data[k]) && data[k] != '\n' && data[k] != '\r' {
			k++
		}
		// ParseFloat keeps nothing of its argument: view the bytes without a copy.
		r, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(data[i:k]), k-i), 64)
		if err != nil || math.IsNaN(r) || math.IsInf(r, 0) {
			return 0, k, false, lineErr(f.file, line, "expected a weight (a non-negative number) as field 3 of %q, found %s", f.shape, token(data, i))
		}
		if r < 0 {
			return 0, k, false, lineErr(f.file, line, "negative weight %s: weights must be >= 0 (weights=drop ignores them)", token(data, i))
		}
		if r > math.MaxInt32 {
			return 0, k, false, lineErr(f.file, line, "weight %s is out of range (at most %d)", token(data, i), math.MaxInt32)
		}
		return int32(math.Round(r)), k, true, nil
	}
	if neg && x != 0 {
		return 0, j, false, lineErr(f.file, line, "negative weight %s: weights must be >= 0 (weights=drop ignores them)", token(data, i))
	}
	if x > math.MaxInt32 {
		return 0, j, false, lineErr(f.file, line, "weight %s is out of range (at most %d)", token(data, i), math.MaxInt32)
	}
	return int32(x), j, false, nil
}
