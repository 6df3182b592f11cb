package engine

import (
	"fmt"
	"slices"

	"github.com/gworkbench/gworkbench/graph"
)

// TCWorthRelabelling is GAPBS's WorthRelabelling, the relabel=auto rule every engine's triangle
// counting applies: renumbering vertices by degree (and orienting arcs by degree) pays when the
// average degree is at least 10 and the average of up to 1000 sampled non-zero degrees exceeds
// 1.3 times their median. off are the CSR offsets of the symmetric graph; the samples come from
// a fixed sequence (graph.Mix64 of 0, 1, ...), so every engine decides alike. The reason is a sentence
// for the trace.
func TCWorthRelabelling(off []int64) (bool, string) {
	n := len(off) - 1
	if n <= 0 {
		return false, "empty graph"
	}
	avg := off[n] / 2 / int64(n)
	if avg < 10 {
		return false, fmt.Sprintf("average degree %d < 10", avg)
	}
	k := min(1000, n)
	samples := make([]int64, 0, k)
	var sum int64
	for i := 0; len(samples) < k && i < 100*k; i++ {
		v := graph.Mix64(uint64(i)) % uint64(n)
		d := off[v+1] - off[v]
		if d == 0 {
			continue
		}
		samples = append(samples, d)
		sum += d
	}
	if len(samples) == 0 {
		return false, "no vertex with edges"
	}
	slices.Sort(samples)
	mean := float64(sum) / float64(len(samples))
	median := float64(samples[len(samples)/2])
	if mean/1.3 > median {
		return true, fmt.Sprintf("skewed: sampled average degree %.1f > 1.3 x median %.0f", mean, median)
	}
	return false, fmt.Sprintf("not skewed: sampled average degree %.1f <= 1.3 x median %.0f", mean, median)
}
