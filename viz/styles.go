package viz

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The palette uses ANSI 256 colours, which degrade well to 16 colours and to none.
var (
	pushStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("39"))  // blue
	pullStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("208")) // orange
	mixedStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("141")) // violet
	edgeStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("35"))  // green
	axisStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("244")) // grey
	timeStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("110")) // steel blue: time, no direction
	markStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("220")).Bold(true)
	headStyle  = lipgloss.NewStyle().Bold(true)
	bestStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("42")).Bold(true)
)

// paint renders s in style when colour is on.
func paint(on bool, st lipgloss.Style, s string) string {
	if !on || s == "" {
		return s
	}
	return st.Render(s)
}

// fit cuts s (which may hold ANSI codes) to at most w cells; w <= 0 leaves it alone.
func fit(s string, w int) string {
	if w <= 0 || ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// pad right-pads s (which may hold ANSI codes) with spaces to w cells.
func pad(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// padLeft left-pads s to w cells.
func padLeft(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

// cellRow accumulates a row of single-cell glyphs and paints runs of the same style at once.
type cellRow struct {
	color bool
	b     strings.Builder
	run   strings.Builder
	cur   *lipgloss.Style
}

func (r *cellRow) put(st *lipgloss.Style, s string) {
	if st != r.cur {
		r.flush()
		r.cur = st
	}
	r.run.WriteString(s)
}

func (r *cellRow) flush() {
	if r.run.Len() == 0 {
		return
	}
	if r.cur != nil && r.color && strings.TrimSpace(r.run.String()) != "" {
		r.b.WriteString(r.cur.Render(r.run.String()))
	} else {
		r.b.WriteString(r.run.String())
	}
	r.run.Reset()
}

func (r *cellRow) String() string {
	r.flush()
	return r.b.String()
}
