package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gworkbench/gworkbench/engine"
	"github.com/gworkbench/gworkbench/session"
	"github.com/gworkbench/gworkbench/viz"
)

// geometry is where things go on the screen, computed from its size and the state.
type geometry struct {
	bodyH          int // between the header and the input line
	mainW, sideW   int
	liveH, outH    int
	inputW         int
	showSide, live bool
}

func (m *model) geometry() geometry {
	g := geometry{bodyH: max(m.height-3, 1), inputW: m.width}
	switch {
	case m.state == stateSchedule:
		g.sideW = min(max(m.width*2/5, 36), 60, m.width-20)
	case m.zoom || m.hideSide:
		g.sideW = 0
	case m.width >= 100:
		g.sideW = 30
	case m.width >= 72:
		g.sideW = 24
	}
	g.sideW = max(g.sideW, 0)
	g.showSide = g.sideW > 0
	g.mainW = m.width - g.sideW
	if !m.live.started.IsZero() && m.state != statePager && !m.zoom {
		g.live = true
		switch {
		case g.bodyH >= 20:
			g.liveH = min(max(g.bodyH*11/20, 10), 24)
		default:
			g.liveH = g.bodyH / 2
		}
	}
	g.outH = max(g.bodyH-g.liveH, 1)
	return g
}

// layout sizes the scrolling views after a resize or a state change.
func (m *model) layout() {
	g := m.geometry()
	m.out.SetWidth(g.mainW)
	m.out.SetHeight(g.outH)
	// The session lays its tables and notes out for the output panel, not a fixed 100 columns.
	if ws, ok := m.s.(interface{ SetWidth(int) }); ok && g.mainW > 0 {
		ws.SetWidth(g.mainW)
	}
	m.pager.SetWidth(g.mainW)
	m.pager.SetHeight(max(g.bodyH-1-strings.Count(m.pagerHead+"\n", "\n")+boolInt(m.pagerHead == ""), 1))
	m.input.SetWidth(max(m.width-3, 10))
	m.syncOut(true) // wrapped again to the new width
}

func (m *model) View() tea.View {
	g := m.geometry()
	var main string
	switch m.state {
	case statePager:
		title := panelTitle.Render(m.pagerTitle) + dimStyle.Render(fmt.Sprintf("  %d%% · ↑↓ PgUp PgDn ←→ scroll · Esc closes", int(m.pager.ScrollPercent()*100)))
		if m.pagerHead != "" {
			title += "\n" + m.pagerHead
		}
		main = block(title+"\n"+m.pager.View(), g.mainW, g.bodyH)
	case stateHelp:
		main = block(m.helpView(), g.mainW, g.bodyH)
	default:
		out := block(m.out.View(), g.mainW, g.outH)
		if g.live {
			main = block(m.liveView(g.mainW, g.liveH), g.mainW, g.liveH) + "\n" + out
		} else {
			main = out
		}
	}
	body := main
	if g.showSide {
		var side string
		if m.state == stateSchedule {
			side = m.sched.view(g.sideW-2, g.bodyH, m.running)
		} else {
			side = m.sideView(g.sideW - 2)
		}
		side = sideBorder.Render(block(side, g.sideW-2, g.bodyH))
		body = lipgloss.JoinHorizontal(lipgloss.Top, main, side)
	}
	screen := m.headerView() + "\n" + body + "\n" + block(m.input.View(), m.width, 1) + "\n" + m.statusView()
	v := tea.NewView(screen)
	v.AltScreen = true
	v.WindowTitle = "gworkbench"
	if m.state == stateInput {
		if c := m.input.Cursor(); c != nil {
			c.Position.Y = m.height - 2
			v.Cursor = c
		}
	}
	return v
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// block cuts or pads s to exactly w x h cells.
func block(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			l = ansi.Truncate(l, w, "…")
			lines[i] = l + strings.Repeat(" ", max(0, w-ansi.StringWidth(l)))
		} else {
			lines[i] = l + strings.Repeat(" ", w-lw)
		}
	}
	return strings.Join(lines, "\n")
}

func (m *model) headerView() string {
	eng, sched := m.sched.defEngine, m.sched.defSched // the session's defaults, not the panel's
	left := " gworkbench"
	for _, gr := range m.graphs {
		if gr.Current && gr.G != nil {
			left += fmt.Sprintf(" · %s (%s V, %s E)", gr.Name, viz.Human(float64(gr.G.NumVertices())), viz.Human(float64(gr.G.NumEdges())))
		}
	}
	left += " · engine " + eng + " · schedule " + sched.String()
	right := "? help "
	gap := m.width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		left = ansi.Truncate(left, max(m.width-ansi.StringWidth(right)-1, 0), "…")
		gap = m.width - ansi.StringWidth(left) - ansi.StringWidth(right)
	}
	return barStyle.Render(left + strings.Repeat(" ", max(gap, 0)) + right)
}

func (m *model) statusView() string {
	var parts []string
	if m.running {
		run := runningStyle.Render("● " + m.runningLine)
		run += dimStyle.Render(" · " + viz.Duration(m.now().Sub(m.execStarted).Round(100*time.Millisecond)))
		run += dimStyle.Render(" · Ctrl+C cancels")
		if m.progress != "" {
			run += " · " + keyStyle.Render(m.progress)
		}
		parts = append(parts, run)
	}
	if !m.following() && m.state == stateInput {
		parts = append(parts, keyStyle.Render(m.scrollPosition()))
	}
	switch {
	case len(m.completions) > 0:
		parts = append(parts, dimStyle.Render(fitNames(session.CompletionNames(m.completions), m.width-2)))
	case m.status != "":
		parts = append(parts, keyStyle.Render(m.status))
	case !m.running:
		parts = append(parts, dimStyle.Render("Enter runs · Tab completes · ↑↓ history · PgUp/PgDn scroll · Ctrl+S schedule · ? keys · q quits"))
	}
	return block(strings.Join(parts, "  "), m.width, 1)
}

// scrollPosition says where the output view is when it does not show the end.
func (m *model) scrollPosition() string {
	n := m.out.TotalLineCount()
	top := m.out.YOffset() + 1
	bottom := min(top+m.out.Height()-1, n)
	return fmt.Sprintf("↑ lines %d–%d of %d (%d%%) · PgDn scrolls on", top, bottom, n, int(m.out.ScrollPercent()*100))
}

// fitNames lists names separated by two spaces in at most width columns, ending with how many
// did not fit.
func fitNames(names []string, width int) string {
	var b strings.Builder
	more := func(k int) string { return fmt.Sprintf("  … %d more", k) }
	for i, n := range names {
		need := b.Len() + len(n)
		if b.Len() > 0 {
			need += 2
		}
		if rest := len(names) - i - 1; rest > 0 {
			need += len(more(rest))
		}
		if need > width && b.Len() > 0 {
			return b.String() + more(len(names)-i)
		}
		if b.Len() > 0 {
			b.WriteString("  ")
		}
		b.WriteString(n)
	}
	return b.String()
}

// liveView is the live panel: what the run is doing now, and its frontier chart.
func (m *model) liveView(w, h int) string {
	l := &m.live
	var head string
	switch {
	case l.running():
		elapsed := m.now().Sub(l.started)
		head = runningStyle.Render("● "+string(l.alg)) + fmt.Sprintf(" on %s · %s", l.graph, l.engineName)
		if l.runs > 1 {
			head += fmt.Sprintf(" · run %d", l.runs)
		}
		if l.iters > 0 {
			head += fmt.Sprintf(" · it %d · %s · %s · frontier %s", l.last.iter, l.last.dir, l.last.mode, viz.Human(float64(l.last.in)))
		}
		head += " · " + viz.Duration(elapsed.Round(time.Millisecond))
		if f, ok := l.progress(); ok {
			head += fmt.Sprintf(" · reached %s %.0f%%", progressBar(f, 10), f*100)
		}
	case l.err != nil:
		head = errStyle.Render("✗ "+string(l.alg)) + fmt.Sprintf(" on %s · %s · %d iterations · %v", l.graph, l.engineName, l.iters, l.err)
	default:
		name := l.name
		if name == "" {
			name = string(l.alg)
		}
		head = okStyle.Render("✓ "+name) + fmt.Sprintf(" · %s on %s · %s · %d iterations in %s", l.alg, l.graph, l.engineName, l.iters, viz.Duration(l.took))
		if f, ok := l.progress(); ok && l.alg == engine.BFS {
			head += fmt.Sprintf(" · reached %.0f%%", f*100)
		}
	}
	// Without colours, push and pull bars are told apart by their glyphs.
	o := viz.ChartOptions{Width: w, Height: h - 1, Log: true, Color: m.color}
	chart := l.chart.FrontierChart(o)
	if m.timeChart {
		o.Log = false
		chart = l.chart.TimeChart(o)
	}
	return head + "\n" + strings.TrimRight(chart, "\n")
}

func progressBar(f float64, w int) string {
	n := int(f*float64(w) + 0.5)
	return okStyle.Render(strings.Repeat("█", n)) + dimStyle.Render(strings.Repeat("░", w-n))
}

// sideView lists the session's graphs and results.
func (m *model) sideView(w int) string {
	var b strings.Builder
	b.WriteString(panelTitle.Render("Graphs") + "\n")
	if len(m.graphs) == 0 {
		b.WriteString(dimStyle.Render("none yet: gen or load") + "\n")
	}
	for _, g := range m.graphs {
		mark := "  "
		if g.Current {
			mark = okStyle.Render("● ")
		}
		size := ""
		if g.G != nil {
			size = dimStyle.Render(fmt.Sprintf("  %s V · %s E", viz.Human(float64(g.G.NumVertices())), viz.Human(float64(g.G.NumEdges()))))
		}
		b.WriteString(mark + g.Name + size + "\n")
	}
	b.WriteString("\n" + panelTitle.Render("Results") + "\n")
	if len(m.results) == 0 && len(m.comps) == 0 {
		b.WriteString(dimStyle.Render("none yet: run bfs") + "\n")
	}
	// Runs, then compares, sweeps and tunes (each one line). The newest matter most: show
	// the last ones that fit.
	var lines []string
	for _, r := range m.results {
		line := r.Name
		if r.R != nil {
			line += dimStyle.Render(fmt.Sprintf(" %s %dit %s", r.R.Engine, r.R.Summary.Iterations, viz.Duration(r.R.Summary.Time)))
		}
		lines = append(lines, line)
	}
	for _, c := range m.comps {
		info := fmt.Sprintf(" %s %d/%d ran", c.Kind, c.Ran, c.Rows)
		if c.Ran == c.Rows {
			info = fmt.Sprintf(" %s %d runs", c.Kind, c.Rows)
		}
		if c.Best > 0 {
			info += " " + viz.Duration(c.Best) // the fastest
		}
		lines = append(lines, c.Name+dimStyle.Render(info))
	}
	if n := m.geometry().bodyH - len(m.graphs) - 5; n > 0 && len(lines) > n {
		b.WriteString(dimStyle.Render(fmt.Sprintf("… %d earlier", len(lines)-n+1)) + "\n")
		lines = lines[len(lines)-n+1:]
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

func (m *model) helpView() string {
	var b strings.Builder
	b.WriteString(panelTitle.Render("Keys") + dimStyle.Render("  (any key closes; `help` lists the commands)") + "\n\n")
	for _, k := range keyHelp {
		b.WriteString(keyStyle.Render(fmt.Sprintf("  %-14s", k[0])) + " " + k[1] + "\n")
	}
	return b.String()
}
