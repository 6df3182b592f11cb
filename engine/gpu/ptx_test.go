package gpu

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPTXCurrent fails when the committed PTX differs from a fresh compile of its kernel by
// Debian's nvcc 11.8 (run `make ptx`). Without that compiler it skips: modification times say
// nothing in a copied or freshly cloned tree (a .cu edit that leaves the PTX byte-identical
// leaves git's PTX older than its source), so comparing them failed falsely on the GPU machine.
// CI installs the toolkit (make cuda-toolkit) before `make test`, so the comparison runs there.
func TestPTXCurrent(t *testing.T) {
	cus, _ := filepath.Glob("kernels/*.cu")
	if len(cus) == 0 {
		t.Fatal("no kernels/*.cu")
	}
	nvcc, _ := exec.LookPath("nvcc")
	if nvcc == "" {
		t.Skip("nvcc is not installed (make cuda-toolkit): the PTX is compared with a fresh compile only where nvcc 11.8 is")
	}
	// The committed PTX comes from Debian's nvcc 11.8; another release writes different PTX
	// for the same source, so only 11.8 is compared.
	if out, err := exec.Command(nvcc, "--version").Output(); err != nil || !bytes.Contains(out, []byte("release 11.8")) {
		t.Skip("nvcc is not release 11.8: the committed PTX is compared with nvcc 11.8's only")
	}
	for _, cu := range cus {
		ptx := strings.TrimSuffix(cu, ".cu") + ".ptx"
		if _, err := os.Stat(ptx); err != nil {
			t.Errorf("%s has no PTX %s: run `make ptx`", cu, ptx)
			continue
		}
		out := filepath.Join(t.TempDir(), filepath.Base(ptx))
		cmd := exec.Command(nvcc, "-ptx", "-arch=compute_70", "-O3", "-std=c++14", "-o", out, cu)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("nvcc %s: %v\n%s", cu, err, msg)
			continue
		}
		fresh, _ := os.ReadFile(out)
		committed, _ := os.ReadFile(ptx)
		if !bytes.Equal(stripHeader(fresh), stripHeader(committed)) {
			t.Errorf("%s does not match a fresh compile of %s: run `make ptx`", ptx, cu)
		}
	}
}

// stripHeader drops the comment lines nvcc writes at the top (they name the compiler build).
func stripHeader(b []byte) []byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("//")) {
			continue
		}
		out = append(out, l)
	}
	return bytes.Join(out, []byte("\n"))
}
