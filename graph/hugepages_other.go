//go:build !linux

package graph

// AdviseHuge asks for transparent huge pages under s; it does nothing outside Linux.
func AdviseHuge[T any](s []T) {}
