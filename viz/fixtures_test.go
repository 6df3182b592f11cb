package viz

import (
	"time"

	"github.com/gworkbench/gworkbench/engine"
)

// bfsTrace is a direction-optimizing BFS of n levels: push, a switch to pull in the middle,
// and back to push.
func bfsTrace(n int) engine.Trace {
	var t engine.Trace
	sizes := []int64{1, 12, 340, 9800, 120000, 410000, 90000, 3100, 80, 4, 1}
	for i := 0; i < n; i++ {
		v := sizes[i%len(sizes)]
		dir := engine.Push
		if i%len(sizes) >= 4 && i%len(sizes) < 7 {
			dir = engine.Pull
		}
		if i%len(sizes) == 4 {
			t.Records = append(t.Records, engine.Record{Kind: engine.SwitchRecord, Iter: i, Switch: &engine.Switch{
				What: "direction", From: "push", To: "pull", Reason: "frontier edges 1.2M > unexplored edges / alpha 0.9M"}})
		}
		if i%len(sizes) == 7 {
			t.Records = append(t.Records, engine.Record{Kind: engine.SwitchRecord, Iter: i, Switch: &engine.Switch{
				What: "direction", From: "pull", To: "push", Lhs: engine.Quantity{Name: "frontier", Value: 3100}, Op: "<", Rhs: engine.Quantity{Name: "V/beta", Value: 35000}}})
		}
		t.Records = append(t.Records, engine.Record{Kind: engine.IterationRecord, Iter: i, Direction: dir, Mode: engine.Data,
			InVertices: v, InEdges: v * 8, OutVertices: v * 3, EdgesScanned: v * 7, Time: time.Duration(v*10+5000) * time.Nanosecond})
	}
	return t
}
