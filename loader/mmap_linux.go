package loader

import (
	"os"
	"syscall"
)

// mapFile maps f read-only (pages populated up front, which beats faulting them in one at a
// time when the file is in the page cache). It returns false when mapping is not possible.
func mapFile(f *os.File, size int64) ([]byte, bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, false
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, false
	}
	return data, true
}

func unmapFile(data []byte) { syscall.Munmap(data) }
