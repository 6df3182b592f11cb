package main

import (
	"io"

	"github.com/gworkbench/gworkbench/session"
)

// runTUI starts the full-screen workbench; ok is false when this binary has none, and the
// caller falls back to the line REPL.
func runTUI(c config, opts session.Options, stderr io.Writer) (code int, ok bool) {
	return 0, false
}
