package gpu

import (
	"embed"
	"path"
	"strings"
)

// The kernels' PTX, compiled by `make ptx` from kernels/*.cu and committed, so that a CUDA
// build needs only the CUDA headers and libcuda. ptx_test.go checks that it is current.
//
//go:embed kernels/*.ptx
var ptxFS embed.FS

// ptxSources returns each module's PTX by module name (the .cu file's base name).
func ptxSources() map[string]string {
	out := map[string]string{}
	ents, _ := ptxFS.ReadDir("kernels")
	for _, e := range ents {
		b, err := ptxFS.ReadFile(path.Join("kernels", e.Name()))
		if err != nil {
			continue
		}
		out[strings.TrimSuffix(e.Name(), ".ptx")] = string(b)
	}
	return out
}
