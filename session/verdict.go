package session

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// The verdict of a comparison row against its baseline (the first row that ran) comes from the
// Mann-Whitney U test, exact for small samples, on the logarithms of the two rows' times, and the
// interval that inverts it: the distribution-free confidence interval of the ratio of the two
// rows' times (Bauer 1972; R's wilcox.test(conf.int=TRUE)). The confidence is Bonferroni-
// corrected over the rows compared with the baseline, so that across a whole table a row is
// called faster or slower when it is not with probability at most familyAlpha.
const familyAlpha = 0.05

// Verdict words.
const (
	verdictBaseline = "baseline"
	verdictFaster   = "faster"
	verdictSlower   = "slower"
	verdictSame     = "same"
)

// verdict is how a row's times compare with the baseline's.
type verdict struct {
	Word   string  // faster, slower, same, or baseline (the row itself is the baseline)
	Ratio  float64 // speed-up: the baseline's median time / the row's median time (> 1: faster)
	Lo, Hi float64 // the confidence interval of the speed-up (0 and +Inf: too few runs to bound it)
	Level  float64 // the interval's confidence, after the correction for several rows (0.95 for one)
	Tests  int     // rows compared with the baseline (the Bonferroni divisor)

	Median, BaseMedian time.Duration // the two rows' median times
}

// bounded reports whether the interval says anything: with too few runs (one, say) it is
// (0, +Inf) and the verdict is same.
func (v verdict) bounded() bool { return v.Hi < math.Inf(1) && v.Lo > 0 }

// String is the verdict as a table cell: "1.52x faster (1.31-1.80)", "same (0.91-1.12)".
func (v verdict) String() string {
	switch v.Word {
	case verdictBaseline:
		return "baseline"
	case "":
		return "-"
	}
	iv := "too few runs"
	if v.bounded() {
		iv = fmt.Sprintf("%s-%s", fmtRatio(v.Lo), fmtRatio(v.Hi))
	}
	if v.Word == verdictSame {
		return fmt.Sprintf("same (%s)", iv)
	}
	return fmt.Sprintf("%sx %s (%s)", fmtRatio(v.Ratio), v.Word, iv)
}

// interval is the speed-up and its interval: "1.31x, interval 0.91-1.80".
func (v verdict) interval() string {
	if !v.bounded() {
		return fmt.Sprintf("%sx, too few runs to bound it", fmtRatio(v.Ratio))
	}
	return fmt.Sprintf("%sx, interval %s-%s", fmtRatio(v.Ratio), fmtRatio(v.Lo), fmtRatio(v.Hi))
}

func fmtRatio(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// compareTimes is the verdict of row's times against base's, as one of tests comparisons made
// with the same baseline (tests < 1 counts as 1).
func compareTimes(base, row []time.Duration, tests int) verdict {
	tests = max(tests, 1)
	a := familyAlpha / float64(tests)
	v := verdict{Level: 1 - a, Tests: tests, Lo: 0, Hi: math.Inf(1), Word: verdictSame}
	mb, _, _ := stats(base)
	mr, _, _ := stats(row)
	v.Median, v.BaseMedian = mr, mb
	if mr > 0 {
		v.Ratio = float64(mb) / float64(mr)
	}
	n, m := len(base), len(row)
	if n == 0 || m == 0 {
		return v
	}
	// Pairwise differences of log times, base minus row: a positive one is a pair in which the
	// row was faster. The interval's ends are the k-th smallest and k-th largest.
	k := ciRank(n, m, a)
	if k < 1 {
		return v
	}
	d := make([]float64, 0, n*m)
	for _, b := range base {
		for _, r := range row {
			d = append(d, math.Log(float64(max(b, 1)))-math.Log(float64(max(r, 1))))
		}
	}
	sort.Float64s(d)
	v.Lo, v.Hi = math.Exp(d[k-1]), math.Exp(d[len(d)-k])
	switch {
	case v.Lo > 1:
		v.Word = verdictFaster
	case v.Hi < 1:
		v.Word = verdictSlower
	}
	return v
}

// versus is the verdict of row j against row i of c (0-based), both of which ran, with the
// comparison's correction for its several rows: `expect cmp1.2 faster than cmp1.1` asks
// versus(1, 0).Word == "faster".
func (c *comparison) versus(j, i int) (verdict, error) {
	for _, k := range []int{i, j} {
		if k < 0 || k >= len(c.rows) {
			return verdict{}, fmt.Errorf("%s has rows %s.1 to %s.%d", c.name, c.name, c.name, len(c.rows))
		}
		if c.rows[k].r == nil {
			return verdict{}, fmt.Errorf("%s.%d did not run: %s", c.name, k+1, c.rows[k].status)
		}
	}
	tests := -1
	for _, row := range c.rows {
		if row.r != nil {
			tests++
		}
	}
	return compareTimes(c.rows[i].times, c.rows[j].times, tests), nil
}

// best is the row that may be called best, or -1: the row of the smallest median time,
// when its verdict is faster than the baseline and it is faster, by the same test, than the
// runner-up (the row of the next smallest median). why says what was found either way.
func (c *comparison) best() (int, string) {
	first, second := -1, -1
	for i, row := range c.rows {
		if row.r == nil {
			continue
		}
		switch {
		case first < 0 || row.median() < c.rows[first].median():
			first, second = i, first
		case second < 0 || row.median() < c.rows[second].median():
			second = i
		}
	}
	base := c.base()
	id := func(i int) string {
		if l := c.labelOf(c.rows[i]); l != "" {
			return fmt.Sprintf("%s.%d (%s)", c.name, i+1, l)
		}
		return fmt.Sprintf("%s.%d", c.name, i+1)
	}
	switch {
	case first < 0 || second < 0:
		return -1, ""
	case first == base || c.rows[first].verdict.Word != verdictFaster:
		return -1, fmt.Sprintf("best: none; no row is faster than %s beyond noise", id(base))
	}
	if second != base {
		if v, err := c.versus(first, second); err != nil || v.Word != verdictFaster {
			return -1, fmt.Sprintf("best: none; %s is not faster than the runner-up %s beyond noise (%s)", id(first), id(second), v.interval())
		}
	}
	v := c.rows[first].verdict
	why := fmt.Sprintf("best: %s, %sx faster than %s (%.1f%% interval %s-%s)", id(first), fmtRatio(v.Ratio), id(base), 100*v.Level, fmtRatio(v.Lo), fmtRatio(v.Hi))
	if second != base {
		why += " and faster than the runner-up " + id(second)
	}
	return first, why
}

// ciRank is the rank k of the ends of the two-sided level 1-a interval of the Mann-Whitney
// test with samples of n and m: the largest k with P(U <= k-1) <= a/2 under the null
// hypothesis (exact counts up to 50 runs a row, the normal approximation above); 0 when no
// interval at that level exists (too few runs).
func ciRank(n, m int, a float64) int {
	if n <= 50 && m <= 50 {
		cdf := uCDF(n, m)
		k := 0
		for k < len(cdf) && cdf[k] <= a/2 {
			k++
		}
		return k
	}
	z := math.Sqrt2 * math.Erfinv(1-a)
	nm := float64(n * m)
	k := int(math.Floor(nm/2 - z*math.Sqrt(nm*float64(n+m+1)/12) + 0.5))
	return max(k, 0)
}

// uCDF returns P(U <= u) for u = 0..n*m, U the Mann-Whitney statistic of samples of n and m
// without ties under the null hypothesis, by the recurrence of the number of arrangements
// f(n, m, u) = f(n-1, m, u-m) + f(n, m-1, u).
func uCDF(n, m int) []float64 {
	// f[j] holds the counts for (i, j) as i grows; counts are float64 (C(100,50) ~ 1e29).
	prev := make([][]float64, m+1) // i-1
	for j := range prev {
		prev[j] = []float64{1} // i = 0: one arrangement, U = 0
	}
	for i := 1; i <= n; i++ {
		cur := make([][]float64, m+1)
		cur[0] = []float64{1}
		for j := 1; j <= m; j++ {
			c := make([]float64, i*j+1)
			for u, x := range cur[j-1] {
				c[u] += x
			}
			for u, x := range prev[j] {
				c[u+j] += x
			}
			cur[j] = c
		}
		prev = cur
	}
	f := prev[m]
	total := 0.0
	for _, x := range f {
		total += x
	}
	cdf := make([]float64, len(f))
	acc := 0.0
	for u, x := range f {
		acc += x
		cdf[u] = acc / total
	}
	return cdf
}

// defaultRuns is the default number of counted runs a row of a comparison of tests rows
// against a baseline: at least 5, and enough that one outlier run (a hiccup of a shared
// machine, which makes every pair it is in point the wrong way) cannot by itself turn a
// verdict, that is with interval ends more than n pairs in from the extremes: 7 runs for two
// rows, 8 for three to six, 10 for sixteen.
func defaultRuns(tests int) int {
	a := familyAlpha / float64(max(tests, 1))
	for n := defaultGridRepeat; n < 50; n++ {
		if ciRank(n, n, a) > n {
			return n
		}
	}
	return 50
}
