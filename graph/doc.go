// Package graph holds the compressed sparse row (CSR) graph that every engine reads,
// its lazily built transpose, and its properties.
//
// A CSR is immutable once built (only package loader builds one), so engines may cache
// device copies keyed by the graph and share it between goroutines.
package graph
