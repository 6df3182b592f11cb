package viz

import (
	"fmt"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
)

// Checked returns the vertices an iteration examined to find its work, on a graph of v
// vertices: every vertex for a topology-driven sweep or a pull step (each vertex asks whether
// it has work, or whether it is still unvisited), the input worklist for a data-driven push.
// Checked minus the active vertices (the record's InVertices) is the work a topology-driven
// iteration wastes on vertices with nothing to do (Nasre et al.). A record that is not an
// iteration checks nothing.
func Checked(r *engine.Record, v int64) int64 {
	switch {
	case r.Kind != engine.IterationRecord:
		return 0
	case r.Mode == engine.Topology || r.Direction == engine.Pull:
		return max(v, r.InVertices)
	}
	return r.InVertices
}

// Active returns, for each record of r's trace, the vertices that had work in that iteration
// (0 for switch and phase records). For a data-driven iteration it is the input worklist.
// A topology-driven sweep of a traversal (bfs, sssp) visits every vertex, and engines report
// them all as its input; the vertices with work are those the previous iteration updated
// (the source, in the first). Other algorithms report their active vertices as they are.
func Active(r *engine.Result) []int64 {
	out := make([]int64, len(r.Trace.Records))
	traversal := r.Algorithm == engine.BFS || r.Algorithm == engine.SSSP
	prev := int64(-1) // the previous iteration's updated vertices; -1 before the first
	for i := range r.Trace.Records {
		rec := &r.Trace.Records[i]
		if rec.Kind != engine.IterationRecord {
			continue
		}
		out[i] = rec.InVertices
		if traversal && rec.Mode == engine.Topology {
			switch {
			case prev >= 0:
				out[i] = min(prev, rec.InVertices)
			case rec.InVertices > 1:
				out[i] = 1 // the source
			}
		}
		prev = rec.OutVertices
	}
	return out
}

// runTraceRows is the trace table of a run for reports: TraceRows's columns with the
// vertices checked after the active ones, and each switch or phase at the iteration it
// precedes.
func runTraceRows(r *engine.Result) (headers []string, rows [][]string) {
	v := int64(r.Graph.Vertices)
	active := Active(r)
	headers = []string{"iter", "dir", "mode", "active", "checked", "in_e", "out_v", "dups", "scanned", "time", "note"}
	for i, rec := range r.Trace.Records {
		switch rec.Kind {
		case engine.IterationRecord:
			note := rec.Note
			if rec.Phase != "" {
				note = strings.TrimSpace(rec.Phase + " " + note)
			}
			rows = append(rows, []string{fmt.Sprint(rec.Iter), rec.Direction.String(), rec.Mode.String(),
				fmt.Sprint(active[i]), fmt.Sprint(Checked(&rec, v)), fmt.Sprint(rec.InEdges), fmt.Sprint(rec.OutVertices),
				fmt.Sprint(rec.Duplicates), fmt.Sprint(rec.EdgesScanned), Duration(rec.Time), note})
		default:
			rows = append(rows, []string{fmt.Sprint(rec.Iter), "", "", "", "", "", "", "", "", "", "» " + describeMark(&rec)})
		}
	}
	return headers, rows
}
