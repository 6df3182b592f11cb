package cpu

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestTeam runs many loops of every size on one team, some after a pause long enough for the
// workers to park, and checks that every worker of each loop ran once and that a loop started
// from inside another is refused (parallel then spawns goroutines for it).
func TestTeam(t *testing.T) {
	tm := newTeam(4)
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
