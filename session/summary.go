package session

import (
	"time"

	"fmt"
	"strings"

	"github.com/gworkbench/gworkbench/engine"
)

// printSummary prints the lines after a run.
func (s *Session) printSummary(it *resultItem) {
	r := it.r
	sm := r.Summary
	text := summaryText(r)
	if (r.Algorithm == engine.SSSP || r.Algorithm == engine.MST) && it.g != nil && !it.g.Weighted() {
		text += " (the graph has no weights: every edge weighs 1)"
	}
	head := fmt.Sprintf("%s on %s [%s]: %s", r.Algorithm, r.Graph.Name, engineLabel(r.Engine), text)
	for i, l := range wrapWords(it.name+" "+head, s.lineWidth()) {
		if i == 0 { // the name in colour
			l = s.paint(ansiBold+ansiGreen, it.name) + strings.TrimPrefix(l, it.name)
		}
		s.printf("%s\n", l)
	}
	tm := it.timeCell()
	if n := len(it.times); n > 1 {
		_, lo, hi := stats(it.times)
		over := fmt.Sprintf("%d runs", n)
		if k := distinct(it.srcs); k > 1 {
			over = fmt.Sprintf("%d runs from %d random sources", n, k)
		}
		tm = fmt.Sprintf("median %s (min %s, max %s, %s)", it.timeCell(), fmtMS(lo), fmtMS(hi), over)
	}
	if it.warmup > 0 {
		tm += fmt.Sprintf(" after %d warm-up", it.warmup)
	}
	stats := fmt.Sprintf("%s, %s scanned, %s, %s GTEPS (%s edges reached)", plural(int64(sm.Iterations), "iteration", "iterations"), plural(sm.EdgesTraversed, "edge", "edges"), tm, fmtGTEPS(sm.GTEPS), fmtCount(sm.TEPSEdges))
	for _, l := range wrapWords(stats, s.lineWidth()-2) {
		s.printf("  %s\n", l)
	}
	if distinct(it.srcs) > 1 {
		var per []string
		for i, src := range it.srcs {
			if i == 16 {
				per = append(per, fmt.Sprintf("... (%d more: export %s json)", len(it.srcs)-16, it.name))
				break
			}
			per = append(per, fmt.Sprintf("%d: %s", src, fmtMS(it.times[i])))
		}
		for _, l := range wrapWords("per source: "+strings.Join(per, ", "), s.lineWidth()-2) {
			s.printf("  %s\n", l)
		}
	}
	if sched := r.Schedule.ResolvedText(r.Algorithm, r.Engine); sched != "" {
		for _, l := range wrapWords("schedule: "+sched, s.lineWidth()-4) {
			s.printf("  %s\n", s.paint(ansiDim, l))
		}
	}
	if ps := paramsText(r); ps != "" {
		for _, l := range wrapWords("params: "+ps, s.lineWidth()-4) {
			s.printf("  %s\n", s.paint(ansiDim, l))
		}
	}
}

// engineLabel names an engine in a summary: the serial reference engine is marked serial, so
// that its times are not read as the parallel engines'.
func engineLabel(name string) string {
	if name == "ref" {
		return "ref, serial"
	}
	return name
}

// distinct counts the different values of xs.
func distinct(xs []int64) int {
	seen := map[int64]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	return len(seen)
}

func paramsText(r *engine.Result) string {
	var parts []string
	for _, p := range engine.ParamSpecs() {
		if p.AppliesTo(r.Algorithm) {
			parts = append(parts, p.Name+"="+r.ParamText(p.Name))
		}
	}
	return strings.Join(parts, " ")
}

// summaryText is the algorithm-specific part of the summary.
func summaryText(r *engine.Result) string {
	sm := r.Summary
	v := int64(r.Graph.Vertices)
	switch r.Algorithm {
	case engine.BFS:
		return fmt.Sprintf("reached %s of %s vertices from %s, max depth %d", fmtCount(sm.Reached), fmtCount(v), r.ParamText("src"), sm.MaxDepth)
	case engine.SSSP:
		return fmt.Sprintf("reached %s of %s vertices from %s, max distance %s", fmtCount(sm.Reached), fmtCount(v), r.ParamText("src"), fmtCount(int64(sm.MaxDist)))
	case engine.CC:
		return fmt.Sprintf("%s, the largest has %s vertices", plural(sm.Components, "component", "components"), fmtCount(sm.LargestComp))
	case engine.PR:
		top, val := argmax(r.Rank)
		if top < 0 {
			return fmt.Sprintf("rank sum %.6f", sm.RankSum)
		}
		return fmt.Sprintf("rank sum %.6f, top vertex %d (rank %.3g)", sm.RankSum, r.Graph.VertexID(top), val)
	case engine.TC:
		return plural(int64(sm.Triangles), "triangle", "triangles")
	case engine.BC:
		top, val := argmax(r.Centrality)
		if top < 0 {
			return fmt.Sprintf("reached %s vertices", fmtCount(sm.Reached))
		}
		switch n := r.Params.Sources; {
		case n == 0:
			return fmt.Sprintf("from one source (src=%s): its shortest paths pass most through vertex %d (%.4g); sources=K samples K sources, sources=all is exact", r.ParamText("src"), r.Graph.VertexID(top), val)
		case n > 0:
			return fmt.Sprintf("estimated from %s (%s a source): most central vertex %d (%.4g)", plural(int64(n), "sampled source", "sampled sources"), fmtMS(sm.Time/time.Duration(n)), r.Graph.VertexID(top), val)
		}
		return fmt.Sprintf("exact, from all %s (%s a source): most central vertex %d (%.4g)", plural(int64(r.Graph.Vertices), "source", "sources"), fmtMS(sm.Time/time.Duration(max(r.Graph.Vertices, 1))), r.Graph.VertexID(top), val)
	case engine.MIS:
		return fmt.Sprintf("independent set of %s vertices", fmtCount(sm.SetSize))
	case engine.MST:
		return fmt.Sprintf("spanning forest of %s, %s, total weight %s", plural(sm.ForestEdges, "edge", "edges"), plural(sm.Components, "tree", "trees"), fmtCount(sm.TotalWeight))
	}
	return ""
}

func argmax(xs []float64) (int, float64) {
	best, val := -1, 0.0
	for i, x := range xs {
		if best < 0 || x > val {
			best, val = i, x
		}
	}
	return best, val
}
