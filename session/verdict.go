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

// minRuns is the fewest runs per row with which the test can tell rows apart at all when tests
// rows are compared with the baseline, so that the default repeat of a large sweep still
// allows a verdict: with 5 runs the smallest two-sided p-value is 2/252 = 0.0079, enough for up
// to 6 rows.
func minRuns(tests int) int {
	a := familyAlpha / float64(max(tests, 1))
	for n := 2; n < 50; n++ {
		if ciRank(n, n, a) >= 1 {
			return n
		}
	}
	return 50
}
