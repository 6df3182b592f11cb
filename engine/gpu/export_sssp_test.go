//go:build cuda

package gpu

import (
	"fmt"
	"os"
)

// SsspOpt sets fused SSSP's SsspOpt bits (for measuring each).
var SsspOpt = &ssspOpt

// GW_SSSP_OPT sets them for the whole test binary (the conformance suite included).
func init() {
	if v := os.Getenv("GW_SSSP_OPT"); v != "" {
		fmt.Sscan(v, &ssspOpt)
	}
}
