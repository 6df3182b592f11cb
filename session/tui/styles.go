package tui

import "charm.land/lipgloss/v2"

// All the TUI's styles. Colours are ANSI 256; Bubble Tea downgrades them to what the
// terminal supports (16 colours, or none).
var (
	titleStyle    = lipgloss.NewStyle().Bold(true)
	dimStyle      = lipgloss.NewStyle().Foreground(lipgloss.Color("244"))
	errStyle      = lipgloss.NewStyle().Foreground(lipgloss.Color("203"))
	okStyle       = lipgloss.NewStyle().Foreground(lipgloss.Color("42"))
	cmdStyle      = lipgloss.NewStyle().Foreground(lipgloss.Color("75")).Bold(true)
	keyStyle      = lipgloss.NewStyle().Foreground(lipgloss.Color("220"))
	selStyle      = lipgloss.NewStyle().Reverse(true)
	invalidStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("240")).Strikethrough(true)
	panelTitle    = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("75"))
	barStyle      = lipgloss.NewStyle().Foreground(lipgloss.Color("252")).Background(lipgloss.Color("236"))
	runningStyle  = lipgloss.NewStyle().Foreground(lipgloss.Color("220")).Bold(true)
	sideBorder    = lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(lipgloss.Color("238")).PaddingLeft(1)
	sectionBorder = lipgloss.NewStyle().Border(lipgloss.NormalBorder(), true, false, false, false).BorderForeground(lipgloss.Color("238"))
)
