//go:build !cuda

package gpu

import (
	"errors"

	"github.com/gworkbench/gworkbench/engine"
)

// ErrNoCUDA is what engine=gpu answers in a binary built without the cuda tag.
var ErrNoCUDA = errors.New("gpu: this gworkbench was built without CUDA; build one with `make gpu` (needs the CUDA toolkit: `make cuda-toolkit`) on a machine with an NVIDIA GPU")

func init() {
	engine.Register("gpu", func() (engine.Engine, error) { return nil, ErrNoCUDA })
}
