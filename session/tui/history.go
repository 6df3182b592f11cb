package tui

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// maxHistory is how many commands the history keeps in memory, as the REPL's readline does.
const maxHistory = 5000

// loadHistory reads the history file (one command a line, the format the REPL's readline
// writes) so that ↑ reaches commands typed in earlier sessions, in the TUI or the REPL. A
// missing or unreadable file is an empty history.
func (m *model) loadHistory(path string) {
	m.histFile = path
	if path == "" {
		return
	}
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var h []string
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && (len(h) == 0 || h[len(h)-1] != line) {
			h = append(h, line)
		}
	}
	if len(h) > maxHistory {
		h = h[len(h)-maxHistory:]
	}
	m.history = append(h, m.history...)
	m.histPos = len(m.history)
}

// saveHistory appends a command to the history file. A history that cannot be written
// says so once in the status line; the command runs all the same.
func (m *model) saveHistory(line string) {
	if m.histFile == "" || strings.ContainsAny(line, "\n\r") {
		return
	}
	err := os.MkdirAll(filepath.Dir(m.histFile), 0o755)
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(m.histFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	}
	if err == nil {
		_, err = f.WriteString(line + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		m.status = "history not saved: " + err.Error()
		m.histFile = ""
	}
}
