package cpu_test

import (
	"testing"

	"github.com/gworkbench/gworkbench/engine"
	_ "github.com/gworkbench/gworkbench/engine/cpu"
	"github.com/gworkbench/gworkbench/engine/enginetest"
)

func TestConformance(t *testing.T) {
	enginetest.Logf(t)
	enginetest.Run(t, "cpu", engine.BFS, engine.SSSP, engine.CC, engine.PR)
}

func TestDistOverflow(t *testing.T) { enginetest.DistOverflow(t, "cpu") }
