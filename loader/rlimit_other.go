//go:build !linux

package loader

// addressSpaceLeft is not known on this system.
func addressSpaceLeft() (int64, bool) { return 0, false }

// addressSpaceUsed is not known on this system.
func addressSpaceUsed() (int64, bool) { return 0, false }
