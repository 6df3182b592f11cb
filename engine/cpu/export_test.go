package cpu

// SSSPHubArcs exports ssspHubArcs to the tests: a graph must have vertices of that many arcs
// for delta-stepping's hub split to run.
const SSSPHubArcs = ssspHubArcs

// SetHotTeams makes every run's team hot (on) or polite (off) whatever the machine, for tests
// of both policies on a small machine, and returns the function that restores the default.
func SetHotTeams(on bool) (restore func()) {
	old := hotTeam
	hotTeam = func(int) bool { return on }
	return func() { hotTeam = old }
}

// SetAfforestPass sets whether afforest may take its single pass (on AMD processors by
// default), so that the tests run both ways on any machine; it returns the earlier setting.
func SetAfforestPass(on bool) bool {
	old := afforestPass
	afforestPass = on
	return old
}

// BucketOf is nd / delta by delta-stepping's bucketDiv.
func BucketOf(delta, nd int64) int64 { return newBucketDiv(delta).of(nd) }
