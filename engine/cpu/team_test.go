package cpu

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// TestTeam runs many loops of every size on one team, hot and polite, some after a pause long
// enough for the workers to park, and checks that every worker of each loop ran once and that
// a loop started from inside another is refused (parallel then spawns goroutines for it).
func TestTeam(t *testing.T) {
	for _, hot := range []bool{false, true} {
		t.Run(fmt.Sprintf("hot=%v", hot), func(t *testing.T) { checkTeam(t, hot) })
	}
}

func checkTeam(t *testing.T, hot bool) {
	tm := newTeam(4, hot)
	defer tm.close()
	var sum atomic.Int64
	want := int64(0)
	for i := range 200 {
		k := 1 + i%4
		if i%50 == 49 {
			time.Sleep(20 * time.Millisecond) // longer than the spin: the workers park
		}
		if !tm.run(k, func(w int) { sum.Add(int64(w + 1)) }) {
			t.Fatalf("loop %d: the idle team refused it", i)
		}
		want += int64(k * (k + 1) / 2)
		if got := sum.Load(); got != want {
			t.Fatalf("loop %d (%d workers): sum of worker ids+1 %d, want %d", i, k, got, want)
		}
	}
	tm.run(2, func(w int) {
		if w == 0 && tm.run(2, func(int) {}) {
			t.Error("a loop started inside a loop ran on the busy team")
		}
	})
}

// TestTeamStall checks the hot policy's fallback: a poller that finds it was off its processor
// for teamStall between two clock reads turns its team polite, and one that was not leaves it
// hot.
func TestTeamStall(t *testing.T) {
	tm := newTeam(1, true)
	defer tm.close()
	tm.spin = time.Hour
	now := time.Now()
	start, last, yielded := now, now, now
	if !tm.spinning(&start, &last, &yielded) || !tm.hot.Load() {
		t.Fatal("a poll right after the last one turned the team polite")
	}
	last = time.Now().Add(-2 * teamStall)
	if !tm.spinning(&start, &last, &yielded) {
		t.Fatal("a poller within its spin was told to park")
	}
	if tm.hot.Load() {
		t.Errorf("a poller off its processor for %v left the team hot", 2*teamStall)
	}
}
