package session

import "fmt"

type comparison struct {
	name  string
	title string
	rows  []compareRow
}

type compareRow struct{}

func notYet(ec *execCtx) error { return fmt.Errorf("not implemented yet") }

var (
	cmdVerify  = notYet
	cmdCompare = notYet
	cmdSweep   = notYet
	cmdExport  = notYet
	cmdPlot    = notYet
	cmdReport  = notYet
	cmdSave    = notYet
	cmdOpen    = notYet
)

func (s *Session) writeJSONLine(v any) error { return nil }

func resultToJSON(it *resultItem) any { return nil }

// Complete returns candidate completions for the last word of line.
func (s *Session) Complete(line string) []string { return nil }
