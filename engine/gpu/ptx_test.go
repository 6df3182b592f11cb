package gpu

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPTXCurrent fails, where nvcc 11.8 is on the PATH, when the committed PTX differs from a
// fresh compile (run `make ptx`); elsewhere when a kernel's .cu is clearly newer than its PTX.
// Headers are left to the compile check: a header change need not change every module's PTX
// (kernels/pr.ptx stays the same when fused_loop in common.cuh changes), and git leaves the
// unchanged PTX with its old time, so comparing a header's time with every PTX failed falsely
// on the device machine after a merge.
func TestPTXCurrent(t *testing.T) {
	cus, _ := filepath.Glob("kernels/*.cu")
	if len(cus) == 0 {
		t.Fatal("no kernels/*.cu")
	}
	nvcc, _ := exec.LookPath("nvcc")
	if nvcc != "" {
		// The committed PTX comes from Debian's nvcc 11.8 (make cuda-toolkit); another
		// release writes different PTX for the same source, so only 11.8 is compared.
		if out, err := exec.Command(nvcc, "--version").Output(); err != nil || !bytes.Contains(out, []byte("release 11.8")) {
			t.Logf("nvcc is not release 11.8: comparing the .cu files' modification times only")
			nvcc = ""
		}
	}
	for _, cu := range cus {
		ptx := strings.TrimSuffix(cu, ".cu") + ".ptx"
		pst, err := os.Stat(ptx)
		if err != nil {
			t.Errorf("%s has no PTX %s: run `make ptx`", cu, ptx)
			continue
		}
		if nvcc == "" {
			// Without nvcc 11.8, modification times are all there is (a fresh checkout sets
			// them arbitrarily, so only a clearly newer source counts).
			if st, err := os.Stat(cu); err == nil && st.ModTime().Sub(pst.ModTime()) > 2e9 {
				t.Errorf("%s is newer than %s: run `make ptx`", cu, ptx)
			}
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
