package engine

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// Version is the program version, set by the linker (-X) for release builds.
var Version = "dev"

var machineOnce sync.Once
var machine, commit string

// MachineProvenance describes this program and machine (no GPU); engines add their device.
func MachineProvenance() Provenance {
	machineOnce.Do(func() {
		machine = cpuModel() + " x" + itoa(runtime.NumCPU())
		commit = Commit
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && commit == "" {
					commit = s.Value
				}
			}
		}
	})
	return Provenance{Version: Version, Commit: commit, Machine: machine, GoVersion: runtime.Version(), Started: time.Now()}
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
