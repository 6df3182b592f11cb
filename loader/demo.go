package loader

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/gworkbench/gworkbench/graph"
)

// facebookGz is SNAP's ego-Facebook (4,039 vertices, 88,234 undirected edges), gzipped.
//
//go:embed facebook.txt.gz
var facebookGz []byte

// Demo returns the embedded demo graph that `make run` starts on: SNAP ego-Facebook, a social
// network small enough to load instantly (4,039 vertices, 88,234 edges) whose dense core makes
// direction-optimizing BFS switch to pull and back. Each call returns a new graph named
// "facebook".
func Demo() (*graph.CSR, error) {
	zr, err := gzip.NewReader(bytes.NewReader(facebookGz))
	if err != nil {
		return nil, fmt.Errorf("loader: demo graph: %w", err)
	}
	b := &edgeBlock{}
	sc := bufio.NewScanner(zr)
	n := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || f[0][0] == '#' {
			continue
		}
		u, err1 := strconv.ParseUint(f[0], 10, 32)
		v, err2 := strconv.ParseUint(f[1], 10, 32)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("loader: demo graph: bad line %q", sc.Text())
		}
		b.src = append(b.src, uint32(u))
		b.dst = append(b.dst, uint32(v))
		n = max(n, int(u)+1, int(v)+1)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("loader: demo graph: %w", err)
	}
	g, st, err := buildCSR(context.Background(), []*edgeBlock{b}, buildSpec{n: n, symmetrize: true})
	if err != nil {
		return nil, err
	}
	g.Origin = graph.Origin{
		Name: "facebook", Path: "facebook_combined.txt (embedded)", Format: "snap",
		DirectionAssumed: "told: undirected (SNAP ego-Facebook is undirected, each edge listed once)",
		SelfLoopsRemoved: st.loops, DuplicatesRemoved: st.dupArcs / 2,
	}
	return g, nil
}
