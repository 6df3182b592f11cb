package engine

import (
	"strings"
	"testing"
)

func sched(t *testing.T, text string) Schedule {
	t.Helper()
	var s Schedule
	for _, kv := range strings.Fields(text) {
		k, v, _ := strings.Cut(kv, "=")
		if err := s.Set(k, v); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	return s
}

// TestValidateAlgorithmRules: rules that hold for every engine are Validate's, so the TUI never
// shows "valid" for a schedule that every engine then refuses.
func TestValidateAlgorithmRules(t *testing.T) {
	for _, c := range []struct {
		a      Algorithm
		engine string
		sched  string
		errHas string // "" = valid
	}{
		{TC, "cpu", "relabel=on order=id", "nothing to renumber by"},
		{TC, "gpu", "relabel=on order=none", "nothing to renumber by"},
		{TC, "cpu", "relabel=off order=id", ""},
		{TC, "cpu", "relabel=on order=degree", ""},
		{TC, "cpu", "relabel=on", ""},
		{CC, "cpu", "method=afforest update=rw", "could lose a link"},
		{CC, "gpu", "method=sv update=rw", ""},
		{CC, "cpu", "method=labelprop update=rw driven=topology", ""},
		{PR, "cpu", "direction=push driven=topology sync=async", "Jacobi"},
		{PR, "cpu", "direction=push driven=topology sync=sync", ""},
		{PR, "cpu", "direction=pull driven=topology sync=async", ""},
		{PR, "cpu", "driven=data sync=async", ""},
		{PR, "gpu", "direction=push blocking=4096", ""},
		{PR, "gpu", "driven=data blocking=4096", "needs driven=topology"},
		{PR, "gpu", "direction=push blocking=off", ""},
		{PR, "gpu", "direction=pull driven=topology blocking=4096", ""},
		{PR, "cpu", "driven=hybrid", "driven=hybrid"},
		{MIS, "cpu", "driven=hybrid", "threshold is a knob of bfs, sssp and cc only"},
		{MST, "gpu", "driven=hybrid", "threshold is a knob of bfs, sssp and cc only"},
		{BC, "cpu", "driven=hybrid", "threshold is a knob of bfs, sssp and cc only"},
		{CC, "cpu", "driven=hybrid", ""},
		{MIS, "cpu", "dedup=cull", "holds each undecided vertex once"},
		{MIS, "cpu", "dedup=none", "holds each undecided vertex once"},
		{MIS, "cpu", "dedup=atomic", ""},
		{BFS, "cpu", "direction=pull dedup=none", ""},
		{BFS, "cpu", "direction=pull dedup=atomic", "never pushes duplicates"},
		{BFS, "cpu", "direction=push alpha=3", "need direction=auto"},
		{SSSP, "cpu", "method=sv", "is not an sssp method"},
		{BFS, "gpu", "method=nearfar", "is not a bfs method"},
		{BFS, "gpu", "method=async", ""},
		{BFS, "gpu", "method=async direction=push driven=data", ""},
		{BFS, "gpu", "method=async fuse=on", "belongs to the level-synchronous"},
		{SSSP, "gpu", "method=async lb=warp", "belongs to the level-synchronous"},
		{SSSP, "gpu", "method=async direction=pull", "belongs to the level-synchronous"},
		{SSSP, "gpu", "method=async delta=4096", ""},
		{CC, "gpu", "method=boruvka", "is not a cc method"},
		{MST, "gpu", "method=luby", "is not an mst method"},
		{MIS, "gpu", "method=afforest", "is not a mis method"},
		{MIS, "gpu", "method=ecl sync=async", "one pass without rounds"},
		{MST, "gpu", "method=ecl driven=topology", "worklist of edges"},
		{CC, "gpu", "method=ecl direction=pull", "hooks and compresses trees"},
		{MST, "gpu", "method=ecl", ""},
		{MIS, "cpu", "method=luby sync=async", ""},
		{SSSP, "cpu", "method=nearfar driven=topology", "Bellman-Ford"},
		{CC, "cpu", "method=sv direction=push", "hooks and compresses trees"},
		{CC, "cpu", "method=afforest frontier=bitmap", "frontier=bitmap chooses among label-propagation schedules"},
		{CC, "gpu", "method=sv sync=sync", "sync=sync chooses among label-propagation schedules"},
		{CC, "cpu", "method=labelprop frontier=bitmap sync=sync", ""},
		{BFS, "cpu", "split=blocked chunk=8", "split=blocked gives each worker one block"},
		{BFS, "gpu", "fuse=tail", "has no such loop"},
		{SSSP, "gpu", "fuse=tail", ""},
	} {
		err := sched(t, c.sched).Validate(c.a, c.engine)
		switch {
		case c.errHas == "" && err != nil:
			t.Errorf("%s %s on %s: %v, want valid", c.a, c.sched, c.engine, err)
		case c.errHas != "" && (err == nil || !strings.Contains(err.Error(), c.errHas)):
			t.Errorf("%s %s on %s: %v, want an error containing %q", c.a, c.sched, c.engine, err, c.errHas)
		}
	}
}

// TestRelevant: Relevant leaves out the knobs that mean nothing given the rest of the schedule.
func TestRelevant(t *testing.T) {
	for _, c := range []struct {
		a           Algorithm
		engine      string
		sched       string
		has, hasNot []string
	}{
		{BFS, "cpu", "direction=push", []string{"direction=push", "driven=auto", "frontier=auto"}, []string{"alpha", "beta", "threshold", "np=", "push_agg"}},
		{BFS, "cpu", "", []string{"alpha=15", "beta=18", "chunk=auto"}, []string{"threshold"}},
		{BFS, "cpu", "driven=hybrid", []string{"threshold=0.6"}, nil},
		{BFS, "cpu", "driven=topology", []string{"update="}, []string{"dedup", "frontier", "threshold"}},
		{BFS, "cpu", "direction=pull", []string{"frontier=auto"}, []string{"dedup", "alpha"}},
		{BFS, "cpu", "direction=pull dedup=none", []string{"dedup=none"}, nil},
		{BFS, "cpu", "split=blocked", []string{"split=blocked"}, []string{"chunk"}},
		{BFS, "gpu", "lb=np", []string{"np=auto", "push_agg=auto"}, []string{"chunk", "workers"}},
		{BFS, "gpu", "lb=twc", []string{"lb=twc"}, []string{"np="}},
		{CC, "cpu", "method=afforest", []string{"method=afforest", "update=auto"}, []string{"direction", "driven", "threshold", "frontier", "dedup", "sync"}},
		{CC, "gpu", "method=sv", []string{"method=sv", "lb=auto"}, []string{"push_agg", "frontier"}},
		{CC, "cpu", "method=labelprop", []string{"direction=auto", "frontier=auto", "sync=auto"}, nil},
		{SSSP, "cpu", "driven=topology", []string{"delta="}, []string{"method", "dedup", "frontier"}},
		{PR, "cpu", "direction=push", []string{"sync=auto", "blocking=auto"}, []string{"frontier", "dedup", "alpha"}},
		{PR, "cpu", "driven=data", []string{"sync=auto"}, []string{"blocking"}},
		{TC, "cpu", "order=id", []string{"order=id", "intersect=auto"}, []string{"relabel", "direction"}},
		{TC, "cpu", "order=degree", []string{"relabel=auto"}, nil},
	} {
		got := " " + sched(t, c.sched).Relevant(c.a, c.engine) + " "
		for _, h := range c.has {
			if !strings.Contains(got, " "+h) {
				t.Errorf("%s %q on %s: Relevant %q lacks %q", c.a, c.sched, c.engine, got, h)
			}
		}
		for _, h := range c.hasNot {
			if strings.Contains(got, " "+h) {
				t.Errorf("%s %q on %s: Relevant %q shows %q", c.a, c.sched, c.engine, got, h)
			}
		}
	}
}

// TestRelevantAgreesWithValidate: every knob a valid schedule sets is one Relevant shows, over
// every algorithm, engine, and pair of knob values (the conditions are shared, not written
// twice).
func TestRelevantAgreesWithValidate(t *testing.T) {
	type kv struct{ k, v string }
	var vals []kv
	for _, k := range Knobs() {
		vs := k.Values
		if vs == nil {
			vs = []string{"3"}
		}
		for _, v := range vs {
			if v != k.Default {
				vals = append(vals, kv{k.Name, v})
			}
		}
	}
	checked := 0
	for _, a := range Algorithms() {
		for _, eng := range []string{"cpu", "gpu", "ref"} {
			for i := range vals {
				for j := i; j < len(vals); j++ {
					var s Schedule
					if s.Set(vals[i].k, vals[i].v) != nil || s.Set(vals[j].k, vals[j].v) != nil {
						continue
					}
					if s.Validate(a, eng) != nil {
						continue
					}
					checked++
					rel := " " + s.Relevant(a, eng) + " "
					for _, p := range []kv{vals[i], vals[j]} {
						if k, _ := LookupKnob(p.k); !k.AppliesTo(a, eng) {
							continue // ref accepts engine knobs of other engines and ignores them
						}
						if want := " " + p.k + "=" + s.Get(p.k) + " "; !strings.Contains(rel, want) {
							t.Errorf("%s on %s: %s is valid, but Relevant %q leaves out %s", a, eng, s, rel, strings.TrimSpace(want))
						}
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d valid schedules checked", checked)
	}
}

// TestKnobNeedsAllChecked: Validate checks every knob need, in its fixed order.
func TestKnobNeedsAllChecked(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range append(append([]string{}, genericNeeds...), algorithmNeeds...) {
		if _, ok := LookupKnob(n); !ok || seen[n] {
			t.Errorf("need order: %q unknown or repeated", n)
		}
		seen[n] = true
	}
	for n := range knobNeeds {
		if !seen[n] {
			t.Errorf("knob need %q is never checked by Validate", n)
		}
	}
}

// TestBlockingKnob: blocking has three states, auto (the engine may block), off and a segment
// size, and each reads back as it was set; off must stay distinct from auto, or an engine that
// blocks by itself could not be told not to.
func TestBlockingKnob(t *testing.T) {
	for _, c := range []struct {
		set  string
		want int
		get  string
	}{{"auto", 0, "auto"}, {"off", BlockingOff, "off"}, {"4096", 4096, "4096"}} {
		var s Schedule
		if err := s.Set("blocking", c.set); err != nil {
			t.Fatalf("blocking=%s: %v", c.set, err)
		}
		if s.Blocking != c.want {
			t.Errorf("blocking=%s: field %d, want %d", c.set, s.Blocking, c.want)
		}
		if got := s.Get("blocking"); got != c.get {
			t.Errorf("blocking=%s reads back as %q", c.set, got)
		}
	}
	for _, bad := range []string{"0", "-5", "abc"} {
		var s Schedule
		if err := s.Set("blocking", bad); err == nil || !strings.Contains(err.Error(), "want off, auto") {
			t.Errorf("blocking=%s: error %v, want one naming off, auto and a size", bad, err)
		}
	}
}

// TestEditDistance: a transposition of adjacent characters is one edit (optimal string
// alignment), so `run bsf` suggests bfs, not bc.
func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"bfs", "bfs", 0},
		{"bsf", "bfs", 1}, {"bsf", "bc", 2}, {"pusj", "push", 1}, {"ca", "abc", 3},
		{"drievn", "driven", 1}, {"kitten", "sitting", 3},
	}
	for _, c := range cases {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if _, err := ParseAlgorithm("bsf"); err == nil || !strings.Contains(err.Error(), `did you mean "bfs"?`) {
		t.Errorf("ParseAlgorithm(bsf): %v, want a suggestion of bfs", err)
	}
}
