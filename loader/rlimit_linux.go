package loader

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// addressSpaceLeft returns how many more bytes of address space the process may map under
// its address-space limit (RLIMIT_AS: `ulimit -v`, prlimit), less a margin for the Go
// runtime's own mappings (heap metadata, thread stacks); ok is false when there is no limit.
// Go reserves address space it has freed, so the size in use (VmSize) counts, not the heap.
func addressSpaceLeft() (int64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur >= 1<<62 {
		return 0, false
	}
	used, _ := addressSpaceUsed()
	limit := int64(rl.Cur)
	margin := max(64<<20, limit/16)
	return max(limit-used-margin, 0), true
}

// addressSpaceUsed returns the process's mapped address space (VmSize), in bytes.
func addressSpaceUsed() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
