package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// keyHelp is the ? screen: key, what it does.
var keyHelp = [][2]string{
	{"Enter", "run the command line (the same commands as the REPL and .gw scripts)"},
	{"Tab", "complete the word under the cursor"},
	{"↑ / ↓", "previous / next command in the history"},
	{"PgUp / PgDn", "scroll the output"},
	{"Ctrl+T", "live panel: frontier chart / time per iteration and per kernel"},
	{"Ctrl+O or F3", "zoom the output: the whole screen, without the side and live panels (again: back)"},
	{"Ctrl+G or F4", "hide / show the side panel"},
	{"Ctrl+P or F5", "the last command's output in a full-screen pager (unwrapped; ←→ scroll)"},
	{"Ctrl+S or F2", "open / close the schedule panel"},
	{"  ↑ ↓", "  pick a knob"},
	{"  ← →", "  change its value (dimmed values are invalid here; the reason is shown)"},
	{"  Enter", "  run the algorithm with the panel's schedule (the session's defaults stay)"},
	{"  d", "  make the panel's schedule the session's defaults (a visible set line)"},
	{"Ctrl+C", "cancel the running command; clear the line when idle"},
	{"Ctrl+L", "clear the output"},
	{"q / Ctrl+D", "quit (q only when the line is empty)"},
	{"Esc", "close the pager, panel or help"},
	{"?", "this help (when the line is empty)"},
}

func (m *model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	m.status = "" // a hint lasts until the next key
	// Keys that mean the same everywhere.
	switch key {
	case "ctrl+c":
		if m.running {
			m.cancel()
			m.cancelled = true
			m.status = "cancelling " + m.runningLine + " …"
			return nil
		}
		m.input.Reset()
		m.completions = nil
		m.status = "nothing is running; q or Ctrl+D quits"
		return nil
	case "ctrl+d":
		if m.running {
			m.status = "a command is running: Ctrl+C cancels it first"
			return nil
		}
		if m.input.Value() == "" {
			return tea.Quit
		}
	case "ctrl+s", "f2":
		if m.state == stateSchedule {
			m.state = stateInput
		} else {
			m.refresh()
			m.state = stateSchedule
		}
		m.layout()
		return nil
	case "ctrl+t":
		m.timeChart = !m.timeChart
		return nil
	case "ctrl+o", "f3":
		m.zoom = !m.zoom
		m.layout()
		return nil
	case "ctrl+g", "f4":
		m.hideSide = !m.hideSide
		m.layout()
		return nil
	case "ctrl+p", "f5":
		if m.state == statePager {
			m.state = stateInput
			m.layout()
			return nil
		}
		body := strings.TrimRight(m.cmdOut.String(), "\n")
		title := "output of " + m.lastLine
		if body == "" {
			body, title = strings.Join(m.transcript, "\n"), "the whole output"
		}
		m.openPager(title, body)
		return nil
	case "ctrl+l":
		m.transcript = nil
		m.out.SetContentLines(nil)
		return nil
	}

	switch m.state {
	case stateHelp:
		m.state = stateInput
		m.layout()
		return nil
	case statePager:
		switch key {
		case "esc", "q", "enter":
			m.state = stateInput
			m.layout()
		case "up", "k":
			m.pager.ScrollUp(1)
		case "down", "j":
			m.pager.ScrollDown(1)
		case "pgup", "b":
			m.pager.PageUp()
		case "pgdown", "space", "f":
			m.pager.PageDown()
		case "home", "g":
			m.pager.GotoTop()
		case "end", "G":
			m.pager.GotoBottom()
		case "left":
			m.pager.ScrollLeft(8)
		case "right":
			m.pager.ScrollRight(8)
		}
		return nil
	case stateSchedule:
		return m.scheduleKey(key)
	}
	return m.inputKey(k)
}

func (m *model) inputKey(k tea.KeyPressMsg) tea.Cmd {
	empty := m.input.Value() == ""
	switch key := k.String(); key {
	case "enter":
		return m.submit(m.input.Value())
	case "tab":
		m.complete()
		return nil
	case "up":
		m.browseHistory(-1)
		return nil
	case "down":
		m.browseHistory(+1)
		return nil
	case "pgup":
		m.out.PageUp()
		return nil
	case "pgdown":
		m.out.PageDown()
		return nil
	case "esc":
		m.completions = nil
		m.status = ""
		return nil
	case "?":
		if empty {
			m.state = stateHelp
			m.layout()
			return nil
		}
	case "q":
		if empty && !m.running {
			return tea.Quit
		}
		if empty {
			m.status = "a command is running: Ctrl+C cancels it, then q quits"
			return nil
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	m.completions = nil
	return cmd
}

func (m *model) browseHistory(step int) {
	if len(m.history) == 0 {
		return
	}
	if m.histPos == len(m.history) {
		m.draft = m.input.Value()
	}
	m.histPos = max(0, min(len(m.history), m.histPos+step))
	if m.histPos == len(m.history) {
		m.input.SetValue(m.draft)
	} else {
		m.input.SetValue(m.history[m.histPos])
	}
	m.input.CursorEnd()
}

// complete asks the session for completions of the line up to the cursor: one candidate
// replaces the word, several insert their common prefix and are listed.
func (m *model) complete() {
	line := m.input.Value()
	cands := m.s.Complete(line)
	if len(cands) == 0 {
		m.status = "no completions"
		return
	}
	// Candidates replace the last word, as the session splits it.
	start := strings.LastIndexAny(line, " \t;") + 1
	word := line[start:]
	repl := cands
	prefix := repl[0]
	for _, c := range repl[1:] {
		for !strings.HasPrefix(c, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if len(repl) == 1 {
		prefix = repl[0]
		if !strings.HasSuffix(prefix, "=") && !strings.HasSuffix(prefix, "/") && !strings.HasSuffix(prefix, ",") {
			prefix += " "
		}
		m.completions = nil
	} else {
		m.completions = repl
	}
	if len(prefix) >= len(word) {
		m.input.SetValue(line[:start] + prefix)
		m.input.CursorEnd()
	}
}
