package viz

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// Style says how text output is rendered: with ANSI colour or plain, and the width to fit
// (0: no limit).
type Style struct {
	Color bool
	Width int
}

// Table renders rows under headers in aligned columns separated by two spaces. Numeric cells
// (numbers, optionally with a unit or a percent sign, such as "1.2ms", "3.4x", "12%") are
// right-aligned, everything else left-aligned. Lines longer than st.Width are cut with "…".
func Table(headers []string, rows [][]string, st Style) string {
	ncol := len(headers)
	for _, r := range rows {
		ncol = max(ncol, len(r))
	}
	if ncol == 0 {
		return ""
	}
	width := make([]int, ncol)
	numeric := make([]bool, ncol)
	for c := range ncol {
		numeric[c] = true
		seen := false
		for _, r := range rows {
			if c < len(r) && r[c] != "" && r[c] != "-" {
				seen = true
				if !isNumeric(r[c]) {
					numeric[c] = false
				}
			}
		}
		numeric[c] = numeric[c] && seen
	}
	for c, h := range headers {
		width[c] = ansi.StringWidth(h)
	}
	for _, r := range rows {
		for c, cell := range r {
			width[c] = max(width[c], ansi.StringWidth(cell))
		}
	}
	var b strings.Builder
	line := func(cells []string, head bool) {
		var l strings.Builder
		for c := range ncol {
			cell := ""
			if c < len(cells) {
				cell = cells[c]
			}
			if c > 0 {
				l.WriteString("  ")
			}
			if numeric[c] {
				cell = padLeft(cell, width[c])
			} else if c < ncol-1 {
				cell = pad(cell, width[c])
			}
			if head {
				cell = paint(st.Color, headStyle, cell)
			}
			l.WriteString(cell)
		}
		b.WriteString(fit(strings.TrimRight(l.String(), " "), st.Width))
		b.WriteByte('\n')
	}
	if len(headers) > 0 {
		line(headers, true)
		rule := make([]string, ncol)
		for c := range rule {
			rule[c] = strings.Repeat("─", width[c])
		}
		if st.Color {
			for c := range rule {
				rule[c] = axisStyle.Render(rule[c])
			}
		}
		line(rule, false)
	}
	for _, r := range rows {
		line(r, false)
	}
	return b.String()
}

// isNumeric reports whether s reads as a number with an optional short unit suffix.
func isNumeric(s string) bool {
	s = strings.TrimSpace(ansi.Strip(s))
	if s == "" {
		return false
	}
	end := len(s)
	for end > 0 && (unicode.IsLetter(rune(s[end-1])) || s[end-1] == '%' || s[end-1] == 0xb5) {
		end--
	}
	if len(s)-end > 3 {
		return false
	}
	num := strings.TrimSpace(strings.TrimSuffix(s[:end], "\xc2"))
	if _, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64); err == nil {
		return true
	}
	return false
}
