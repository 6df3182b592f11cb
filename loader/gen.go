package loader

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gworkbench/gworkbench/graph"
)

// genBlock is the number of edges one generator block makes; each block has its own random
// stream, so generated graphs depend on the seed only, not on the number of goroutines.
const genBlock = 1 << 20

// generator is one graph kind's recipe: it reads its parameters and returns the blocks of
// edges plus how to build them.
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
//	road  vertices= seed=                 planar road-like network, euclidean integer weights
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
	ws, werr := parseWeights(p.str("weights", "keep"))
	prog := newProgress(progress, "gen "+kind)
	defer prog.finish()
	prog.phase("generate", 0)
	gd, err := gen(ctx, p, seed)
	if err != nil {
		return nil, err
	}
	if werr != nil {
		return nil, werr
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
		g.Origin.DirectionAssumed = "generated undirected"
		g.Origin.DuplicatesRemoved = st.dupArcs / 2
	} else {
		g.Origin.DirectionAssumed = "told: directed"
		g.Origin.DuplicatesRemoved = st.dupArcs
	}
	applyWeights(g, ws, seed)
	return g, ctx.Err()
}

// genCheck refuses a generated graph that would not fit in memory.
func genCheck(desc string, n, edges int64, symmetrize, weighted bool) error {
	arcs := edges
	if symmetrize {
		arcs *= 2
	}
	return checkMemory(desc, buildBytes(n, edges, arcs, 4, weighted))
}

// R-MAT quadrant probabilities of Graph500 (a, a+b, a+b+c), in 1/65536ths: each level of
// recursion uses 16 random bits.
const (
	kronA   = 37355 // 0.57
	kronAB  = 49807 // 0.76
	kronABC = 62259 // 0.95
)

func genKron(ctx context.Context, p *params, seed int64) (*generated, error) {
	scale := p.int("scale", 16, 1, 31)
	degree := p.int("degree", 16, 1, 1<<20)
	directed := p.bool("directed", false)
	if err := p.done(); err != nil {
		return nil, err
	}
	n := int64(1) << scale
	m := degree * n
	desc := fmt.Sprintf("kron scale=%d degree=%d seed=%d", scale, degree, seed)
	if directed {
		desc += " directed=true"
	}
	if err := genCheck(desc, n, m, !directed, false); err != nil {
		return nil, err
	}
	// GAPBS permutes vertex ids so that the id says nothing about the degree.
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	r := newRNG(seed, 1<<62)
	for i := n - 1; i > 0; i-- {
		j := r.below(uint64(i + 1))
		perm[i], perm[j] = perm[j], perm[i]
	}
	blocks := makeBlocks(m)
	parallelFor(len(blocks), workers(), func(bi int) {
		if ctx.Err() != nil {
			return
		}
		b := blocks[bi]
		r := newRNG(seed, uint64(bi))
		for i := range b.dst {
			var u, v uint32
			var x uint64
			for d := int64(0); d < scale; d++ {
				if d&3 == 0 {
					x = r.next()
				}
				q := uint32(x & 0xffff)
				x >>= 16
				u <<= 1
				v <<= 1
				if q < kronAB {
					if q >= kronA {
						v++
					}
				} else {
					u++
					if q >= kronABC {
						v++
					}
				}
			}
			b.src[i], b.dst[i] = perm[u], perm[v]
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &generated{blocks: blocks, n: int(n), symmetrize: !directed, symmetrized: !directed, desc: desc}, nil
}

func genURand(ctx context.Context, p *params, seed int64) (*generated, error) {
	scale := p.int("scale", 16, 1, 31)
	degree := p.int("degree", 16, 1, 1<<20)
	directed := p.bool("directed", false)
	if err := p.done(); err != nil {
		return nil, err
	}
	n := int64(1) << scale
	m := degree * n
	desc := fmt.Sprintf("urand scale=%d degree=%d seed=%d", scale, degree, seed)
	if directed {
		desc += " directed=true"
	}
	if err := genCheck(desc, n, m, !directed, false); err != nil {
		return nil, err
	}
	blocks := makeBlocks(m)
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
