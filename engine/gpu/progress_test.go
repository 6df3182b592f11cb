package gpu

import (
	"sync"
	"testing"
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// TestMeter checks that a meter shared by workers reports a rising count, a few times a second
// at most, and ends with the whole step done.
func TestMeter(t *testing.T) {
	var mu sync.Mutex
	var got []engine.Progress
	req := &engine.Request{Progress: func(p engine.Progress) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	}}
	const workers, per, chunk = 4, 40, 1000
	m := newMeter(req, "building the test layout", workers*per*chunk)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				m.add(chunk)
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	m.finish()
	took := time.Since(start)
	if len(got) < 2 {
		t.Fatalf("%d reports in %v, want some before the end and one at it", len(got), took)
	}
	if most := int(took/progressEvery) + 2; len(got) > most {
		t.Errorf("%d reports in %v, want at most %d (one per %v and the last)", len(got), took, most, progressEvery)
	}
	for i, p := range got {
		if p.What != "building the test layout" || p.Unit != "arcs" || p.Total != workers*per*chunk {
			t.Fatalf("report %d = %+v", i, p)
		}
		if p.Done > p.Total || (i > 0 && p.Done < got[i-1].Done) {
			t.Fatalf("report %d: done %d after %d of %d", i, p.Done, got[max(i-1, 0)].Done, p.Total)
		}
	}
	if last := got[len(got)-1]; last.Done != last.Total {
		t.Errorf("last report %d of %d, want the whole step", last.Done, last.Total)
	}
}

// TestMeterQuiet checks that nobody listening costs nothing: no meter at all.
func TestMeterQuiet(t *testing.T) {
	if m := newMeter(&engine.Request{}, "x", 10); m != nil {
		t.Fatal("a meter without a listener")
	}
	var m *meter
	m.add(5) // a nil meter is quiet
	m.finish()
}
