package session

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
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

func TestCIRank(t *testing.T) {
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

// TestKronAutoFaster: on kron scale 16 the direction-optimizing BFS is faster than push-only
// by the verdict (GAPBS's and Beamer's result, several times over on such a graph).
func TestKronAutoFaster(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen k = kron scale=16")
	do(t, s, out, "compare bfs direction=push,auto engine=cpu")
	c := s.comparisonNamed("cmp1")
	if v := c.rows[1].verdict; v.Word != verdictFaster {
		t.Errorf("kron scale 16, auto against push: %s, want faster\n%s", v, out.String())
	}
	if b, _ := c.best(); b != 1 {
		t.Errorf("kron scale 16: best row %d, want auto (1)", b)
	}
}

// TestGridTEPS: on a connected grid every BFS reaches every vertex, so TEPS x time is the
// grid's edge count (rows*(cols-1) + cols*(rows-1)) within 1%, whatever the direction (and the
// edges scanned differ); so is it over random sources and on the serial engine.
func TestGridTEPS(t *testing.T) {
	s, out := newTest(t)
	do(t, s, out, "gen g = grid rows=30 cols=40")
	const edges = 30*39 + 40*29
	do(t, s, out, "compare bfs direction=push,pull,auto engine=cpu,ref repeat=2")
	do(t, s, out, "run bfs sources=3 seed=5 as trials")
	c := s.comparisonNamed("cmp1")
	var items []*resultItem
	for i, row := range c.rows {
		if row.r == nil {
			t.Fatalf("row %d did not run: %s", i+1, row.status)
		}
		items = append(items, &resultItem{name: c.labelOf(row), r: row.r, measured: row.measured})
	}
	trials, err := s.result("trials")
	if err != nil {
		t.Fatal(err)
	}
	items = append(items, trials)
	for _, it := range items {
		sm := it.r.Summary
		got := sm.GTEPS * 1e9 * sm.Time.Seconds()
		if math.Abs(got-edges) > 0.01*edges || sm.TEPSEdges != edges {
			t.Errorf("%s: TEPS x time = %.0f (teps edges %d), want %d within 1%%", it.name, got, sm.TEPSEdges, edges)
		}
	}
	if len(trials.srcs) != 3 || distinct(trials.srcs) != 3 {
		t.Errorf("sources=3: ran from %v, want 3 different sources", trials.srcs)
	}
}

// TestRandomSources: src=random and sources=N pick sources with an edge, the same for the same
// seed; bc keeps sources=N as its own (dependencies summed over N sources), and its
// src=random is reproducible.
func TestRandomSources(t *testing.T) {
	s, out := newTest(t) // p: the path 0-1-2-3 and the isolated vertex 4
	do(t, s, out, "run bfs src=random seed=3 as a; run bfs src=random seed=3 as b; run sssp sources=4 seed=1 as c")
	a, _ := s.result("a")
	b, _ := s.result("b")
	c, _ := s.result("c")
	if a.r.Params.Src != b.r.Params.Src || a.r.Params.Src == 4 {
		t.Errorf("src=random seed=3: %d then %d, want the same vertex with an edge", a.r.Params.Src, b.r.Params.Src)
	}
	if len(c.srcs) != 4 || distinct(c.srcs) != 4 || slices.Contains(c.srcs, 4) {
		t.Errorf("sssp sources=4: sources %v, want 0..3 in some order", c.srcs)
	}
	o := do(t, s, out, "run bc sources=2 seed=1 as d")
	mustContain(t, "bc sources=2", o, "params: src=")
	d, _ := s.result("d")
	if len(d.times) != 1 || len(d.srcs) != 1 {
		t.Errorf("bc sources=2: %d runs, want 1 run (its two sources are one bc)", len(d.times))
	}
	do(t, s, out, "run bc src=random seed=9 as e; run bc src=random seed=9 as f")
	e, _ := s.result("e")
	f, _ := s.result("f")
	if e.r.Params.Src != f.r.Params.Src || e.r.Params.Src == 4 {
		t.Errorf("bc src=random seed=9: %d then %d", e.r.Params.Src, f.r.Params.Src)
	}
	if err := s.Exec(context.Background(), "run bfs sources=all"); err == nil || !strings.Contains(err.Error(), "sources=all is bc's") {
		t.Errorf("bfs sources=all: %v", err)
	}
}

func TestDefaultRuns(t *testing.T) {
	for _, c := range []struct{ tests, want int }{{1, 7}, {2, 8}, {3, 8}, {6, 9}, {16, 10}} {
		if got := defaultRuns(c.tests); got != c.want {
			t.Errorf("defaultRuns(%d): got %d want %d", c.tests, got, c.want)
		}
		// One outlier run of the row, slower than every baseline run, leaves a clear speed-up
		// faster.
		base, row := make([]time.Duration, c.want), make([]time.Duration, c.want)
		for i := range base {
			base[i], row[i] = time.Duration(100+i), time.Duration(30+i)
		}
		row[0] = 1000
		if v := compareTimes(base, row, c.tests); v.Word != verdictFaster {
			t.Errorf("%d tests, %d runs, one outlier: %s, want faster", c.tests, c.want, v)
		}
	}
}

// TestTimeCell: a row's time shows the device's and the kernels' medians beside the end-to-end
// median when the engine measured them and they differ, and only the end-to-end time when not;
// a result's JSON keeps both series and reads them back.
func TestTimeCell(t *testing.T) {
	ms := func(v ...float64) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x*1e6))
		}
		return d
	}
	for _, c := range []struct {
		m    measured
		want string
	}{
		{measured{times: ms(1, 2, 3)}, "2.00 ms"},
		{measured{times: ms(0.132, 0.140, 0.128), devices: ms(0.108, 0.111, 0.105), kernels: ms(0.101, 0.104, 0.099)}, "0.132 ms (device 0.108 ms, kernels 0.101 ms)"},
		{measured{times: ms(0.5), kernels: ms(0.4)}, "0.500 ms (kernels 0.400 ms)"},
		{measured{times: ms(0.5), devices: ms(0.5004)}, "0.500 ms"},
	} {
		if got := c.m.timeCell(); got != c.want {
			t.Errorf("timeCell(%+v) = %q, want %q", c.m, got, c.want)
		}
	}
	r := &engine.Result{Algorithm: engine.MIS, Engine: "gpu"}
	r.Summary.Time, r.Summary.DeviceTime, r.Summary.KernelTime = 132*time.Microsecond, 108*time.Microsecond, 101*time.Microsecond
	m := measured{times: ms(0.132, 0.140), devices: ms(0.108, 0.111), kernels: ms(0.101, 0.104)}
	j := resultJSONOf(r, m)
	if j.DeviceMS != 0.108 || len(j.DeviceTimesMS) != 2 || j.DeviceTimesMS[1] != 0.111 {
		t.Errorf("JSON device times: %v %v, want 0.108 and [0.108 0.111]", j.DeviceMS, j.DeviceTimesMS)
	}
	back, bm, err := resultFromJSON(j)
	if err != nil {
		t.Fatal(err)
	}
	if back.Summary.DeviceTime != 108*time.Microsecond || len(bm.devices) != 2 || bm.devices[1] != 111*time.Microsecond {
		t.Errorf("read back: device %v, runs %v; want 108us and [108us 111us]", back.Summary.DeviceTime, bm.devices)
	}
}
