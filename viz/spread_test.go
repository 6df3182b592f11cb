package viz

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The terminal chart draws each value's spread (▒ from min to the median, a whisker to max) and
// marks best only on the row the caller names.
func TestSpreadChart(t *testing.T) {
	out := SpreadChart("time against alpha", "ms", []string{"5", "15"}, []float64{2, 1}, []float64{1.5, 0.9}, []float64{3, 1.2}, -1, ChartOptions{Width: 60})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "▒") || !strings.Contains(lines[1], "┤") || !strings.Contains(lines[1], "2.00 ms (1.50-3.00)") {
		t.Errorf("chart:\n%s", out)
	}
	if strings.Contains(out, "best") {
		t.Errorf("best marked with best = -1:\n%s", out)
	}
	if out := SpreadChart("", "ms", []string{"5", "15"}, []float64{2, 1}, []float64{1.5, 0.9}, []float64{3, 1.2}, 1, ChartOptions{Width: 60}); !strings.Contains(strings.Split(out, "\n")[1], "◀ best") {
		t.Errorf("best = 1 not marked:\n%s", out)
	}
}

// Plot files of a comparison draw the spread as error bars and table it with the verdicts.
func TestComparisonSpread(t *testing.T) {
	dir := t.TempDir()
	c := &Comparison{Title: "compare bfs", Labels: []string{"direction=push", "direction=auto"}, Ms: []float64{2.5, 0.5},
		Lo: []float64{2.2, 0.45}, Hi: []float64{3.1, 0.61}, Verdicts: []string{"baseline", "5.00x faster (4.1-6.2)"}}
	without := *c
	without.Lo, without.Hi = nil, nil
	svg := func(c *Comparison, name string) string {
		p := filepath.Join(dir, name)
		if err := WriteComparisonPlot(p, c); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		return string(b)
	}
	with, bare := svg(c, "with.svg"), svg(&without, "bare.svg")
	if n, m := strings.Count(with, "<path"), strings.Count(bare, "<path"); n < m+2 {
		t.Errorf("error bars: %d paths with the spread, %d without; want at least 2 more", n, m)
	}
	page := svg(c, "cmp.html")
	for _, want := range []string{"<th>spread (min-max)</th>", "<td>2.20-3.10</td>", "<td>5.00x faster (4.1-6.2)</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("cmp.html lacks %q", want)
		}
	}
}
