package session

import (
	"strings"
	"text/tabwriter"
)

// table renders a table for the session's output.
func (s *Session) table(headers []string, rows [][]string) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	w.Write([]byte(strings.Join(headers, "\t") + "\n"))
	for _, r := range rows {
		w.Write([]byte(strings.Join(r, "\t") + "\n"))
	}
	w.Flush()
	return b.String()
}

// histogram renders labelled counts as bars.
func (s *Session) histogram(labels []string, counts []int64) string {
	var b strings.Builder
	var max int64 = 1
	for _, c := range counts {
		if c > max {
			max = c
		}
	}
	for i, l := range labels {
		n := int(counts[i] * 40 / max)
		if counts[i] > 0 && n == 0 {
			n = 1
		}
		b.WriteString("  " + pad(l, 10) + " " + strings.Repeat("#", n) + " " + fmtCount(counts[i]) + "\n")
	}
	return b.String()
}

func pad(s string, n int) string {
	for len(s) < n {
		s += " "
	}
	return s
}
