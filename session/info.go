package session

import (
	"fmt"
	"strconv"
)

func cmdInfo(ec *execCtx) error {
	if len(ec.args) > 1 {
		return fmt.Errorf("info: want at most one graph name: info [NAME]")
	}
	s := ec.s
	name := ""
	if len(ec.args) == 1 {
		name = ec.args[0]
	}
	g, err := s.graph(name)
	if err != nil {
		return fmt.Errorf("info: %v", err)
	}
	if name == "" {
		name = s.currentName()
	}
	p := g.Properties()
	o := g.Origin
	s.printf("%s\n", s.graphLine(name, g))
	var rows [][]string
	add := func(k, v string) { rows = append(rows, []string{k, v}) }
	add("vertices", fmtCount(int64(p.Vertices)))
	if g.Directed {
		add("edges", fmtCount(p.Edges)+" (directed arcs)")
	} else {
		add("edges", fmtCount(p.Edges)+" undirected ("+fmtCount(p.Arcs)+" arcs)")
	}
	dir := "undirected"
	if g.Directed {
		dir = "directed"
	}
	if o.DirectionAssumed != "" {
		dir += " (" + o.DirectionAssumed + ")"
	}
	if o.Symmetrized {
		dir += ", symmetrized"
	}
	add("direction", dir)
	w := "none"
	if g.Weighted() {
		w = "integer"
		if o.WeightsGenerated != "" {
			w += ", generated " + o.WeightsGenerated
		}
	}
	add("weights", w)
	add("degree", fmt.Sprintf("min %d, avg %.2f, max %d (vertex %d)", p.MinDegree, p.AvgDegree, p.MaxDegree, g.IDs.ID(uint32(p.MaxDegreeVertex))))
	add("isolated", fmtCount(p.Isolated))
	if p.Diameter >= 0 {
		add("diameter", fmt.Sprintf("~%d (estimate, a lower bound)", p.Diameter))
	}
	add("memory", fmtBytes(p.Bytes))
	add("fingerprint", g.Fingerprint())
	switch {
	case o.Generator != "":
		add("made by", "gen "+o.Generator)
	case o.Path != "":
		src := o.Path
		if o.Format != "" {
			src += " (" + o.Format
			if o.FromCache {
				src += ", from the .gwg cache"
			}
			src += ")"
		}
		add("read from", src)
	}
	add("vertex ids", idsText(g))
	if o.SelfLoopsRemoved > 0 || o.DuplicatesRemoved > 0 || p.SelfLoops > 0 {
		add("removed", fmt.Sprintf("%s self-loops, %s duplicate edges (%s self-loops kept)", fmtCount(o.SelfLoopsRemoved), fmtCount(o.DuplicatesRemoved), fmtCount(p.SelfLoops)))
	}
	for _, r := range rows {
		s.printf("  %-12s %s\n", r[0], r[1])
	}
	labels, counts := degreeBuckets(p.DegreeHistogram)
	if len(labels) > 0 {
		s.printf("\nout-degree histogram (vertices per degree range)\n")
		s.printf("%s", s.histogram(labels, counts))
	}
	return nil
}

// degreeBuckets labels the power-of-two degree histogram: 0, 1, 2-3, 4-7, ...
func degreeBuckets(h []int64) ([]string, []int64) {
	var labels []string
	for k := range h {
		switch k {
		case 0:
			labels = append(labels, "0")
		case 1:
			labels = append(labels, "1")
		default:
			lo, hi := int64(1)<<(k-1), int64(1)<<k-1
			labels = append(labels, fmt.Sprintf("%s-%s", shortCount(lo), shortCount(hi)))
		}
	}
	return labels, h
}

func shortCount(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dG", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return strconv.FormatInt(n, 10)
}

func fmtBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}
