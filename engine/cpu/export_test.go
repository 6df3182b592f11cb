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
