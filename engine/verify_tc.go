package engine

import (
	"fmt"

	"github.com/gworkbench/gworkbench/graph"
)

func init() { registerVerifier(TC, verifyTC) }

// verifyTC requires the exact triangle count.
func verifyTC(g *graph.CSR, got, want *Result) error {
	if got.Triangles != want.Triangles {
		return fmt.Errorf("tc: got %d triangles, want %d (difference %d)", got.Triangles, want.Triangles, int64(got.Triangles-want.Triangles))
	}
	if got.Summary.Triangles != got.Triangles {
		return fmt.Errorf("tc: summary says %d triangles, the result %d", got.Summary.Triangles, got.Triangles)
	}
	return nil
}
