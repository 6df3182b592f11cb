package loader

import (
	"context"
	"fmt"
	"math"

	"github.com/gworkbench/gworkbench/graph"
)

// Road-like graphs (road vertices= seed=, or rows= cols= for a given grid shape): a jittered
// grid of intersections. A random spanning tree of the grid
// streets keeps the network connected; of the other streets about roadKeep are kept, and a few
// cells get one diagonal street (one per cell, so streets never cross). Weights are euclidean
// street lengths (grid step = roadUnit). Average degree comes out near 2.8, like the DIMACS road
// networks, and the diameter grows as the square root of the vertices.
const (
	roadKeep     = 0.40
	roadDiagonal = 0.05
	roadJitter   = 0.35
	roadUnit     = 1000
)

func genRoad(ctx context.Context, p *params, seed int64) (*generated, error) {
	n := p.int("vertices", 100000, 2, 1<<31)
	rows := p.int("rows", 0, 1, 1<<31)
	cols := p.int("cols", 0, 1, 1<<31)
	if err := p.done(); err != nil {
		return nil, err
	}
	desc := fmt.Sprintf("road vertices=%d seed=%d", n, seed)
	if rows > 0 || cols > 0 {
		// The intersections as a rows x cols street grid instead.
		rows, cols = max(rows, 1), max(cols, 1)
		if _, ok := p.kv["vertices"]; ok {
			return nil, fmt.Errorf("loader: road: give vertices= or rows= cols=, not both")
		}
		if n = rows * cols; n < 2 || n > 1<<31 {
			return nil, fmt.Errorf("loader: road: rows*cols = %d: expected 2..%d vertices", n, int64(1<<31))
		}
		desc = fmt.Sprintf("road rows=%d cols=%d seed=%d", rows, cols, seed)
	} else {
		cols = int64(math.Ceil(math.Sqrt(float64(n))))
	}
	if err := checkMemory(desc, n*40+buildBytes(n, 2*n, 4*n, 4, true)); err != nil {
		return nil, err
	}
	pos := func(v int64) (float64, float64) {
		h := graph.Mix64(uint64(seed)*graph.Golden ^ uint64(v))
		jx := (float64(h&0xffffff)/(1<<24) - 0.5) * 2 * roadJitter
		jy := (float64((h>>24)&0xffffff)/(1<<24) - 0.5) * 2 * roadJitter
		return float64(v%cols) + jx, float64(v/cols) + jy
	}
	// Candidate streets.
	r := newRNG(seed, 2<<60)
	cand := make([][2]uint32, 0, 2*n+n/16)
	for v := int64(0); v < n; v++ {
		j := v % cols
		if j+1 < cols && v+1 < n {
			cand = append(cand, [2]uint32{uint32(v), uint32(v + 1)})
		}
		if v+cols < n {
			cand = append(cand, [2]uint32{uint32(v), uint32(v + cols)})
		}
		if j+1 < cols && v+cols+1 < n && r.float() < roadDiagonal {
			if r.next()&1 == 0 {
				cand = append(cand, [2]uint32{uint32(v), uint32(v + cols + 1)})
			} else {
				cand = append(cand, [2]uint32{uint32(v + 1), uint32(v + cols)})
			}
		}
	}
	for i := len(cand) - 1; i > 0; i-- {
		j := r.below(uint64(i + 1))
		cand[i], cand[j] = cand[j], cand[i]
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Spanning tree first (union-find), then a random share of the rest.
	sets := graph.NewUnionFind(int(n))
	b := &edgeBlock{}
	for _, e := range cand {
		keep := sets.Union(e[0], e[1])
		if !keep {
			keep = r.float() < roadKeep
		}
		if !keep {
			continue
		}
		x0, y0 := pos(int64(e[0]))
		x1, y1 := pos(int64(e[1]))
		w := int32(math.Round(math.Hypot(x1-x0, y1-y0) * roadUnit))
		b.src = append(b.src, e[0])
		b.dst = append(b.dst, e[1])
		b.w = append(b.w, max(w, 1))
	}
	return &generated{blocks: splitBlock(b), n: int(n), symmetrize: true, weighted: true, desc: desc}, ctx.Err()
}

// splitBlock cuts one big block into genBlock-sized ones so that building runs in parallel.
func splitBlock(b *edgeBlock) []*edgeBlock {
	var out []*edgeBlock
	for lo := 0; lo < len(b.dst); lo += genBlock {
		hi := min(lo+genBlock, len(b.dst))
		nb := &edgeBlock{src: b.src[lo:hi], dst: b.dst[lo:hi]}
		if b.w != nil {
			nb.w = b.w[lo:hi]
		}
		out = append(out, nb)
	}
	return out
}

// genRGG places 2^scale points uniformly in the unit square and joins every pair closer than
// r, with r chosen so that the expected degree is degree (pi r^2 n = degree, ignoring the
// border). Points are bucketed into cells of side >= r, so each point is compared only with
// the points of its own and the neighbouring cells.
func genRGG(ctx context.Context, p *params, seed int64) (*generated, error) {
	scale := p.int("scale", 16, 1, 31)
	degree := p.int("degree", 8, 1, 1<<16)
	if err := p.done(); err != nil {
		return nil, err
	}
	n := int64(1) << scale
	desc := fmt.Sprintf("rgg scale=%d degree=%d seed=%d", scale, degree, seed)
	if err := checkMemory(desc, 16*n+buildBytes(n, degree*n/2, degree*n, 4, false)); err != nil {
		return nil, err
	}
	rad := math.Sqrt(float64(degree) / (math.Pi * float64(n)))
	k := max(1, int64(1/rad))
	if k > 1<<15 {
		k = 1 << 15
	}
	xs := make([]float32, n)
	ys := make([]float32, n)
	cell := make([]uint32, n)
	pb := splitRange(int(n), int((n+genBlock-1)/genBlock))
	parallelFor(len(pb)-1, workers(), func(bi int) {
		r := newRNG(seed, uint64(bi))
		for i := pb[bi]; i < pb[bi+1]; i++ {
			x, y := r.float(), r.float()
			xs[i], ys[i] = float32(x), float32(y)
			cx, cy := min(int64(x*float64(k)), k-1), min(int64(y*float64(k)), k-1)
			cell[i] = uint32(cy*k + cx)
		}
	})
	// Counting sort of points by cell.
	start := make([]int64, k*k+1)
	for _, c := range cell {
		start[c+1]++
	}
	for c := int64(0); c < k*k; c++ {
		start[c+1] += start[c]
	}
	order := make([]uint32, n)
	cur := append([]int64(nil), start[:k*k]...)
	for i, c := range cell {
		order[cur[c]] = uint32(i)
		cur[c]++
	}
	cell, cur = nil, nil
	r2 := float32(rad * rad)
	blocks := make([]*edgeBlock, k)
	parallelFor(int(k), workers(), func(cy int) {
		if ctx.Err() != nil {
			return
		}
		b := &edgeBlock{}
		y := int64(cy)
		for x := int64(0); x < k; x++ {
			c := y*k + x
			pts := order[start[c]:start[c+1]]
			for ai, a := range pts {
				ax, ay := xs[a], ys[a]
				near := func(q []uint32) {
					for _, bb := range q {
						dx, dy := xs[bb]-ax, ys[bb]-ay
						if dx*dx+dy*dy <= r2 {
							b.src = append(b.src, a)
							b.dst = append(b.dst, bb)
						}
					}
				}
				near(pts[ai+1:])
				for _, d := range [4][2]int64{{1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
					nx, ny := x+d[0], y+d[1]
					if nx < 0 || nx >= k || ny >= k {
						continue
					}
					nc := ny*k + nx
					near(order[start[nc]:start[nc+1]])
				}
			}
		}
		blocks[cy] = b
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &generated{blocks: blocks, n: int(n), symmetrize: true, desc: desc}, nil
}
