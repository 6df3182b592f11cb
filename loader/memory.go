package loader

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// availableMemory returns how many bytes this process can still allocate: the smallest of the
// system's MemAvailable, the cgroup (container) limit less its usage, the Go memory limit
// (GOMEMLIMIT) and the address space left under the process's limit (`ulimit -v`). It
// returns math.MaxInt64 when none is known. Tests replace it.
var availableMemory = func() int64 {
	avail := int64(math.MaxInt64)
	if v, ok := meminfo("MemAvailable"); ok {
		avail = min(avail, v)
	}
	if lim, ok := readInt("/sys/fs/cgroup/memory.max"); ok {
		use, _ := readInt("/sys/fs/cgroup/memory.current")
		avail = min(avail, lim-use)
	} else if lim, ok := readInt("/sys/fs/cgroup/memory/memory.limit_in_bytes"); ok && lim < 1<<60 {
		use, _ := readInt("/sys/fs/cgroup/memory/memory.usage_in_bytes")
		avail = min(avail, lim-use)
	}
	if lim := debug.SetMemoryLimit(-1); lim < math.MaxInt64 {
		avail = min(avail, lim)
	}
	if left, ok := addressSpaceLeft(); ok {
		avail = min(avail, left)
	}
	return max(avail, 0)
}

// meminfo reads one field of /proc/meminfo, in bytes.
func meminfo(key string) (int64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != key {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) == 0 {
			return 0, false
		}
		v, err := strconv.ParseInt(fs[0], 10, 64)
		if err != nil {
			return 0, false
		}
		if len(fs) > 1 && fs[1] == "kB" {
			v *= 1024
		}
		return v, true
	}
	return 0, false
}

func readInt(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}

// buildBytes estimates the peak bytes of building a CSR on n vertices from edges input edges:
// the edge blocks (srcBytes per edge for the sources, 4 for the destination, 4 for a weight),
// plus the offsets and the neighbour (and weight) arrays of arcs arcs.
func buildBytes(n, edges, arcs int64, srcBytes int64, weighted bool) int64 {
	per := srcBytes + 4
	arcBytes := int64(4)
	if weighted {
		per += 4
		arcBytes += 4
	}
	return edges*per + 8*(n+1) + arcs*arcBytes
}

// checkMemory refuses work that needs more memory than is available, with both numbers.
func checkMemory(what string, need int64) error {
	avail := availableMemory()
	if need > avail {
		return fmt.Errorf("loader: %s needs about %s of memory to build, but only %s is available", what, fmtBytes(need), fmtBytes(avail))
	}
	return nil
}
