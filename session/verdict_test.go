package session

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestUCDF(t *testing.T) {
	for _, c := range []struct {
		n, m int
		u    int
		want float64
	}{
		{5, 5, 0, 1.0 / 252}, {5, 5, 1, 2.0 / 252}, {5, 5, 2, 4.0 / 252}, {5, 5, 12, 0.5}, {5, 5, 25, 1},
		{3, 4, 0, 1.0 / 35}, {1, 1, 0, 0.5}, {6, 6, 0, 1.0 / 924},
	} {
		cdf := uCDF(c.n, c.m)
		if len(cdf) != c.n*c.m+1 {
			t.Fatalf("uCDF(%d,%d): %d entries, want %d", c.n, c.m, len(cdf), c.n*c.m+1)
		}
		if got := cdf[c.u]; math.Abs(got-c.want) > 1e-12 {
			t.Errorf("P(U <= %d) for %d and %d runs: got %g want %g", c.u, c.n, c.m, got, c.want)
		}
	}
}

func TestCIRankAndMinRuns(t *testing.T) {
	for _, c := range []struct {
		n, m int
		a    float64
		want int
	}{
		{5, 5, 0.05, 3},     // P(U<=2) = 4/252 <= 0.025 < P(U<=3) = 7/252
		{5, 5, 0.05 / 3, 2}, // P(U<=1) = 2/252 <= 0.0083
		{5, 5, 0.05 / 7, 0}, // 1/252 > 0.0036: no interval at that level with 5 runs
		{1, 1, 0.05, 0},     // one run each says nothing
		{50, 50, 0.05, 966}, // exact; the normal approximation gives 965.7
	} {
		if got := ciRank(c.n, c.m, c.a); got != c.want {
			t.Errorf("ciRank(%d, %d, %g): got %d want %d", c.n, c.m, c.a, got, c.want)
		}
	}
	// The normal approximation above 50 runs continues the exact ranks.
	if k := ciRank(51, 51, 0.05); k != 1008 {
		t.Errorf("ciRank(51, 51, 0.05) = %d, want 1008", k)
	}
	for _, c := range []struct{ tests, want int }{{1, 4}, {3, 5}, {6, 5}, {7, 6}, {20, 6}, {100, 8}} {
		if got := minRuns(c.tests); got != c.want {
			t.Errorf("minRuns(%d): got %d want %d", c.tests, got, c.want)
		}
	}
}

func ds(ms ...float64) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, x := range ms {
		out[i] = time.Duration(x * 1e6)
	}
	return out
}

func TestCompareTimes(t *testing.T) {
	base := ds(1.00, 1.02, 0.98, 1.05, 1.01)
	for _, c := range []struct {
		name  string
		row   []time.Duration
		tests int
		word  string
	}{
		{"half the time", ds(0.50, 0.52, 0.49, 0.51, 0.55), 1, verdictFaster},
		{"twice the time", ds(2.0, 2.1, 1.9, 2.2, 2.05), 3, verdictSlower},
		{"the same times", ds(1.00, 1.02, 0.98, 1.05, 1.01), 1, verdictSame},
		{"interleaved", ds(0.99, 1.03, 0.97, 1.04, 1.00), 1, verdictSame},
		{"one run", ds(0.5), 1, verdictSame},
		// Separated, but 5 runs cannot tell 7 rows apart at 95% family-wise: same.
		{"too many rows", ds(0.50, 0.52, 0.49, 0.51, 0.55), 7, verdictSame},
	} {
		v := compareTimes(base, c.row, c.tests)
		if v.Word != c.word {
			t.Errorf("%s: got %s (%s), want %s", c.name, v.Word, v, c.word)
		}
		if v.Word != verdictSame && !(v.Lo <= v.Ratio && v.Ratio <= v.Hi) {
			t.Errorf("%s: ratio %g outside its interval %g-%g", c.name, v.Ratio, v.Lo, v.Hi)
		}
	}
	v := compareTimes(base, ds(0.50, 0.52, 0.49, 0.51, 0.55), 1)
	if math.Abs(v.Ratio-1.01/0.51) > 1e-9 || v.Level != 0.95 || !strings.HasPrefix(v.String(), "1.98x faster (") {
		t.Errorf("half the time: ratio %g level %g %q, want 1.98x faster at 0.95", v.Ratio, v.Level, v.String())
	}
	if v := compareTimes(base, ds(0.5), 1); v.bounded() || v.String() != "same (too few runs)" {
		t.Errorf("one run: %q, want same (too few runs)", v.String())
	}
}

// identicalCompare runs `compare bfs direction=push,push,push,push` on the demo graph and says
// whether every row's verdict is same.
func identicalCompare(tb testing.TB, s *Session) (bool, string) {
	tb.Helper()
	if err := s.Exec(context.Background(), "compare bfs direction=push,push,push,push engine=cpu as cmp"); err != nil {
		tb.Fatal(err)
	}
	c := s.comparisonNamed("cmp")
	var words []string
	all := true
	for _, row := range c.rows[1:] {
		words = append(words, row.verdict.String())
		all = all && row.verdict.Word == verdictSame
	}
	return all, strings.Join(words, ", ")
}

// TestIdenticalSchedulesSame: four identical schedules on the demo graph get the verdict same
// for every row. The test's family-wise error is at most 5% per comparison, so it asks 2 of 4
// comparisons to be all same (it would fail with probability under 0.1% even at 5%; the full
// count of 100 is BenchmarkIdenticalSame's).
func TestIdenticalSchedulesSame(t *testing.T) {
	s := New(Options{})
	if err := s.LoadDemo(); err != nil {
		t.Fatal(err)
	}
	same := 0
	for i := 0; i < 4; i++ {
		ok, words := identicalCompare(t, s)
		if ok {
			same++
		} else {
			t.Logf("comparison %d: %s", i+1, words)
		}
	}
	if same < 2 {
		t.Errorf("identical schedules: %d of 4 comparisons all same, want at least 2", same)
	}
}

// BenchmarkIdenticalSame counts, of 100 comparisons of four identical schedules on the demo
// graph, those whose every row is same (the issue asks for at least 95):
// go test ./session -run '^$' -bench IdenticalSame -benchtime 1x
func BenchmarkIdenticalSame(b *testing.B) {
	s := New(Options{})
	if err := s.LoadDemo(); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		same := 0
		for i := 0; i < 100; i++ {
			if ok, words := identicalCompare(b, s); ok {
				same++
			} else {
				b.Logf("comparison %d: %s", i+1, words)
			}
		}
		b.ReportMetric(float64(same), "same/100")
	}
}

// TestVerdictJSON: a compare's rows carry speedup, its interval, level and verdict as numbers
// and words; a result carries warmup and its counted times.
func TestVerdictJSON(t *testing.T) {
	s, out := newTest(t)
	s.opts.Format = "json"
	do(t, s, out, "compare bfs direction=push,pull repeat=6 warmup=2 src=0")
	var c struct {
		Rows []struct {
			SpeedUp   *float64 `json:"speedup"`
			SpeedUpLo *float64 `json:"speedup_lo"`
			SpeedUpHi *float64 `json:"speedup_hi"`
			Level     float64  `json:"level"`
			Verdict   string   `json:"verdict"`
			Result    struct {
				Warmup  int       `json:"warmup"`
				TimesMS []float64 `json:"times_ms"`
				Sources []int64   `json:"sources"`
			} `json:"result"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(out.Bytes(), &c); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if len(c.Rows) != 2 || c.Rows[0].Verdict != "baseline" || c.Rows[1].Verdict == "" || c.Rows[1].SpeedUp == nil ||
		c.Rows[1].SpeedUpLo == nil || c.Rows[1].SpeedUpHi == nil || c.Rows[1].Level != 0.95 {
		t.Fatalf("rows: %s", out.String())
	}
	for i, r := range c.Rows {
		if r.Result.Warmup != 2 || len(r.Result.TimesMS) != 6 || len(r.Result.Sources) != 6 || r.Result.Sources[0] != 0 {
			t.Errorf("row %d: warmup %d, %d times, sources %v; want 2, 6, six 0s", i+1, r.Result.Warmup, len(r.Result.TimesMS), r.Result.Sources)
		}
	}
}

// TestRoundRobin: the rows' counted runs interleave (row 1, row 2, row 1, ...), after every
// row's warm-up.
func TestRoundRobin(t *testing.T) {
	s, out := newTest(t)
	var order []string
	s.opts.Observer = func(ev Event) {
		if st, ok := ev.(RunStarted); ok {
			order = append(order, st.Schedule.Direction.String())
		}
	}
	do(t, s, out, "compare bfs direction=push,pull repeat=3 warmup=1")
	got := strings.Join(order, " ")
	if want := "push pull push pull push pull push pull"; !strings.HasPrefix(got, want) {
		t.Errorf("run order %q, want %q (then the verifications)", got, want)
	}
}
