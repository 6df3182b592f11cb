package cpu

// SSSPHubArcs exports ssspHubArcs to the tests: a graph must have vertices of that many arcs
// for delta-stepping's hub split to run.
const SSSPHubArcs = ssspHubArcs
