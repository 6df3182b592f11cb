//go:build cuda

package gpu_test

import (
	"testing"

	"github.com/gworkbench/gworkbench/engine/enginetest"
)

func TestDistOverflow(t *testing.T) { enginetest.DistOverflow(t, "gpu") }
