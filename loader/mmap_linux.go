package loader

import (
	"os"
	"syscall"
)

// mapFile maps f read-only; the pages fault in (many at a time, from the page cache) as the
// checksum reads them. It returns false when mapping is not possible.
func mapFile(f *os.File, size int64) ([]byte, bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, false
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	return data, true
}

func unmapFile(data []byte) { syscall.Munmap(data) }
