package loader

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gworkbench/gworkbench/graph"
)

// genBlock is the number of edges one generator block makes; each block has its own random
// stream, so generated graphs depend on the seed only, not on the number of goroutines.
const genBlock = 1 << 20

// generated is what a generator made: blocks of edges and how to build them.
type generated struct {
	blocks      []*edgeBlock
	n           int
	symmetrize  bool   // undirected output
	symmetrized bool   // the edges were directed and got reversed copies (kron, urand)
	weighted    bool   // the blocks carry weights (road)
	desc        string // canonical "kind k=v ..." for Origin.Generator
}

// Generate builds a synthetic graph of the given kind from its parameters (scale=, degree=,
// seed=, rows=, cols=, vertices=, weights=, ...). Unknown parameters are refused.
//
//	kron  scale= degree= seed= directed=  Graph500 R-MAT (a=.57 b=.19 c=.19): degree*2^scale
//	                                      edges, ids randomly permuted, symmetrized (GAPBS -g -k)
//	urand scale= degree= seed= directed=  degree*2^scale uniformly random edges (GAPBS -u -k)
//	grid  rows= cols=                     2D 4-neighbour grid
//	road  vertices= seed= (or rows= cols=) planar road-like network, euclidean integer weights
//	rgg   scale= degree= seed=            random geometric graph in the unit square
//
// Every kind takes weights=keep|drop|uniform:LO:HI (uniform weights drawn from seed=).
func Generate(ctx context.Context, kind string, kv map[string]string, progress io.Writer) (*graph.CSR, error) {
	p := &params{kind: kind, kv: kv}
	var gen func(ctx context.Context, p *params, seed int64) (*generated, error)
	switch kind {
	case "kron":
		gen = genKron
	case "urand":
		gen = genURand
	case "grid":
		gen = genGrid
	case "road":
		gen = genRoad
	case "rgg":
		gen = genRGG
	default:
		return nil, fmt.Errorf("loader: unknown generator %q%s; generators: %s", kind, didYouMean(kind, GeneratorKinds()), strings.Join(GeneratorKinds(), ", "))
	}
	seed := p.int("seed", 1, -1<<62, 1<<62)
	ws, err := parseWeights(p.str("weights", "keep"))
	if err != nil {
		return nil, err
	}
	prog := newProgress(progress, "gen "+kind)
	defer prog.finish()
	prog.phase("generate", 0)
	p.prog = prog
	gd, err := gen(ctx, p, seed)
	if err != nil {
		return nil, err
	}
	g, st, err := buildCSR(ctx, gd.blocks, buildSpec{
		n: gd.n, symmetrize: gd.symmetrize, weighted: gd.weighted && ws.mode == "keep", prog: prog,
	})
	if err != nil {
		return nil, err
	}
	desc := gd.desc
	if _, ok := kv["weights"]; ok {
		desc += " weights=" + ws.String()
	}
	g.Origin = graph.Origin{
		Format:           "gen",
		Generator:        desc,
		Symmetrized:      gd.symmetrized,
		SelfLoopsRemoved: st.loops,
	}
	if gd.symmetrize {
		g.Origin.DirectionAssumed = "generator default"
		g.Origin.DuplicatesRemoved = st.dupArcs / 2
	} else {
		g.Origin.DirectionAssumed = "told: directed"
		g.Origin.DuplicatesRemoved = st.dupArcs
	}
	applyWeights(g, ws, seed)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

// genCheck refuses a generated graph that would not fit in memory.
func genCheck(desc string, n, edges int64, symmetrize, weighted bool) error {
	arcs := edges
	if symmetrize {
		arcs *= 2
	}
	return checkMemory(desc, buildBytes(n, edges, arcs, 4, weighted))
}

// R-MAT quadrant probabilities of Graph500: a=.57 b=.19 c=.19 d=.05. Each level of the
// recursion picks a quadrant; kronPair picks two levels at once from 16 random bits, with the
// 16 joint outcomes quantized to 1/65536: its entry is u1u2<<2 | v1v2.
var (
	kronProb     = [4]float64{0.57, 0.19, 0.19, 0.05}
	kronPairOnce sync.Once
	kronPair     [1 << 16]uint8
	kronOne      [1 << 16]uint8 // one level: u<<1 | v
)

func initKronTables() {
	fill := func(t *[1 << 16]uint8, probs []float64, codes []uint8) {
		cum, x := 0.0, 0
		for k, p := range probs {
			cum += p
			end := int(cum*65536 + 0.5)
			if k == len(probs)-1 {
				end = 65536
			}
			for ; x < end; x++ {
				t[x] = codes[k]
			}
		}
	}
	var probs []float64
	var codes []uint8
	for q1 := 0; q1 < 4; q1++ {
		for q2 := 0; q2 < 4; q2++ {
			probs = append(probs, kronProb[q1]*kronProb[q2])
			u := uint8(q1>>1)<<1 | uint8(q2>>1)
			v := uint8(q1&1)<<1 | uint8(q2&1)
			codes = append(codes, u<<2|v)
		}
	}
	fill(&kronPair, probs, codes)
	fill(&kronOne, kronProb[:], []uint8{0, 1, 2, 3})
}

// scaleDegree reads the parameters kron and urand share (scale=, degree= as GAPBS's -k,
// directed=), checks the size, and returns the scale (2^scale vertices), degree x 2^scale
// edges to draw, and the generator's description.
func scaleDegree(kind string, p *params, seed int64) (scale, m int64, directed bool, desc string, err error) {
	scale = p.int("scale", 16, 1, 31)
	degree := p.int("degree", 16, 1, 1<<20)
	directed = p.bool("directed", false)
	if err = p.done(); err != nil {
		return
	}
	n := int64(1) << scale
	m = degree * n
	desc = fmt.Sprintf("%s scale=%d degree=%d seed=%d", kind, scale, degree, seed)
	if directed {
		desc += " directed=true"
	}
	err = genCheck(desc, n, m, !directed, false)
	return
}

func genKron(ctx context.Context, p *params, seed int64) (*generated, error) {
	scale, m, directed, desc, err := scaleDegree("kron", p, seed)
	if err != nil {
		return nil, err
	}
	n := int64(1) << scale
	// GAPBS permutes vertex ids so that an id says nothing about the degree; a keyed
	// bijection of [0, 2^scale) does the same without a table (and its cache misses).
	perm := newPermuter(uint(scale), seed)
	kronPairOnce.Do(initKronTables)
	blocks := makeBlocks(m)
	p.prog.phase("generate", m)
	parallelFor(len(blocks), workers(), func(bi int) {
		if ctx.Err() != nil {
			return
		}
		b := blocks[bi]
		r := newRNG(seed, uint64(bi))
		for i := range b.dst {
			var u, v uint32
			var x uint64
			for d := int64(0); d < scale/2; d++ {
				if d&3 == 0 {
					x = r.next()
				}
				c := uint32(kronPair[x&0xffff])
				x >>= 16
				u = u<<2 | c>>2
				v = v<<2 | c&3
			}
			if scale&1 == 1 {
				c := uint32(kronOne[r.next()&0xffff])
				u = u<<1 | c>>1
				v = v<<1 | c&1
			}
			b.src[i], b.dst[i] = perm.at(u), perm.at(v)
		}
		p.prog.add(int64(len(b.dst)))
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &generated{blocks: blocks, n: int(n), symmetrize: !directed, symmetrized: !directed, desc: desc}, nil
}

func genURand(ctx context.Context, p *params, seed int64) (*generated, error) {
	scale, m, directed, desc, err := scaleDegree("urand", p, seed)
	if err != nil {
		return nil, err
	}
	n := int64(1) << scale
	blocks := makeBlocks(m)
	p.prog.phase("generate", m)
	mask := uint64(n - 1)
	parallelFor(len(blocks), workers(), func(bi int) {
		if ctx.Err() != nil {
			return
		}
		b := blocks[bi]
		r := newRNG(seed, uint64(bi))
		for i := range b.dst {
			x := r.next()
			b.src[i], b.dst[i] = uint32(x&mask), uint32((x>>32)&mask)
		}
		p.prog.add(int64(len(b.dst)))
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &generated{blocks: blocks, n: int(n), symmetrize: !directed, symmetrized: !directed, desc: desc}, nil
}

// makeBlocks allocates blocks for m edges with per-edge sources.
func makeBlocks(m int64) []*edgeBlock {
	var blocks []*edgeBlock
	for lo := int64(0); lo < m; lo += genBlock {
		k := min(genBlock, m-lo)
		blocks = append(blocks, &edgeBlock{src: make([]uint32, k), dst: make([]uint32, k)})
	}
	return blocks
}

func genGrid(ctx context.Context, p *params, seed int64) (*generated, error) {
	rows := p.int("rows", 100, 1, 1<<31)
	cols := p.int("cols", rows, 1, 1<<31)
	if err := p.done(); err != nil {
		return nil, err
	}
	n := rows * cols
	if n > 1<<32-1 {
		return nil, fmt.Errorf("loader: grid: rows*cols = %d vertices; at most %d fit in 32-bit ids", n, int64(1<<32-1))
	}
	desc := fmt.Sprintf("grid rows=%d cols=%d", rows, cols)
	m := rows*(cols-1) + (rows-1)*cols
	if err := genCheck(desc, n, m, true, false); err != nil {
		return nil, err
	}
	rb := splitRange(int(rows), int(min(rows, max(1, m/genBlock+1))))
	blocks := make([]*edgeBlock, len(rb)-1)
	parallelFor(len(blocks), workers(), func(bi int) {
		b := &edgeBlock{}
		for i := int64(rb[bi]); i < int64(rb[bi+1]); i++ {
			for j := int64(0); j < cols; j++ {
				v := uint32(i*cols + j)
				if j+1 < cols {
					b.src = append(b.src, v)
					b.dst = append(b.dst, v+1)
				}
				if i+1 < rows {
					b.src = append(b.src, v)
					b.dst = append(b.dst, uint32((i+1)*cols+j))
				}
			}
		}
		blocks[bi] = b
	})
	return &generated{blocks: blocks, n: int(n), symmetrize: true, desc: desc}, ctx.Err()
}

// permuter is a pseudo-random bijection of [0, 2^bits): rounds of multiplying by an odd key
// and xor-shifting, each invertible modulo 2^bits.
type permuter struct {
	mask  uint32
	shift uint
	mul   [3]uint32
	add   [3]uint32
}

func newPermuter(bits uint, seed int64) permuter {
	p := permuter{mask: uint32(1<<bits - 1), shift: max(bits/2, 1)}
	r := newRNG(seed, 1<<62)
	for i := range p.mul {
		p.mul[i] = uint32(r.next()) | 1
		p.add[i] = uint32(r.next())
	}
	return p
}

func (p permuter) at(x uint32) uint32 {
	for i := range p.mul {
		x = (x*p.mul[i] + p.add[i]) & p.mask
		x ^= x >> p.shift
	}
	return x
}

// GeneratorKinds lists the generators: kron, urand, grid, road, rgg.
func GeneratorKinds() []string { return []string{"kron", "urand", "grid", "road", "rgg"} }
