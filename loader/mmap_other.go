//go:build !linux

package loader

import "os"

// mapFile is not used on this system: .gwg files are read into memory.
func mapFile(f *os.File, size int64) ([]byte, bool) { return nil, false }

func unmapFile(data []byte) {}
