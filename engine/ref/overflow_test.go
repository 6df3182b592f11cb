package ref_test

import (
	"testing"

	"github.com/gworkbench/gworkbench/engine/enginetest"
)

func TestDistOverflow(t *testing.T) { enginetest.DistOverflow(t, "ref") }
