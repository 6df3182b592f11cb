package session

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ANSI styles, used only when Options.Color is set.
const (
	ansiBold    = "\x1b[1m"
	ansiDim     = "\x1b[2m"
	ansiRed     = "\x1b[31m"
	ansiGreen   = "\x1b[32m"
	ansiYellow  = "\x1b[33m"
	ansiBlue    = "\x1b[34m"
	ansiMagenta = "\x1b[35m"
	ansiCyan    = "\x1b[36m"
	ansiReset   = "\x1b[0m"
)

func (s *Session) paint(style, text string) string {
	if !s.opts.Color || text == "" {
		return text
	}
	return style + text + ansiReset
}

// fmtCount formats n with thousands separators: 1234567 -> 1,234,567.
func fmtCount(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	d := strconv.FormatInt(n, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// fmtMS formats a duration in milliseconds with three significant digits (at least).
func fmtMS(d time.Duration) string {
	return fmtMSf(float64(d) / 1e6)
}

func fmtMSf(ms float64) string {
	// Three significant digits; the bounds are where rounding reaches the next decade, so
	// 0.9996 ms is 1.00 ms, not 1.000 ms.
	switch {
	case ms >= 99.95:
		return fmt.Sprintf("%.0f ms", ms)
	case ms >= 9.995:
		return fmt.Sprintf("%.1f ms", ms)
	case ms >= 0.9995:
		return fmt.Sprintf("%.2f ms", ms)
	default:
		return fmt.Sprintf("%.3f ms", ms)
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// fmtGTEPS formats giga-traversed edges per second.
func fmtGTEPS(g float64) string {
	switch {
	case g == 0:
		return "-"
	case g >= 1:
		return fmt.Sprintf("%.2f", g)
	default:
		return fmt.Sprintf("%.3f", g)
	}
}

func fmtFloat(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Sprint(f)
	}
	return strconv.FormatFloat(f, 'g', 6, 64)
}

// median, min and max of durations (which it sorts).
func stats(ts []time.Duration) (med, lo, hi time.Duration) {
	if len(ts) == 0 {
		return 0, 0, 0
	}
	c := append([]time.Duration(nil), ts...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	n := len(c)
	if n%2 == 1 {
		med = c[n/2]
	} else {
		med = (c[n/2-1] + c[n/2]) / 2
	}
	return med, c[0], c[n-1]
}

// medianF is the median of xs (0 for none).
func medianF(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	c := slices.Clone(xs)
	slices.Sort(c)
	n := len(c)
	if n%2 == 1 {
		return c[n/2]
	}
	return (c[n/2-1] + c[n/2]) / 2
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmtCount(n) + " " + many
}

func parseNum(s string) (float64, error) {
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

// fmtNum formats a swept value without float noise: 0.30000000000000004 -> 0.3.
func fmtNum(x float64) string {
	r := math.Round(x*1e9) / 1e9
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// wrapWords breaks text at spaces into lines of at most width columns, continuation lines
// indented by two spaces; width <= 20 means no wrapping.
func wrapWords(text string, width int) []string {
	if width <= 20 || len(text) <= width {
		return []string{text}
	}
	var lines []string
	cur := ""
	for _, w := range strings.Fields(text) {
		if cur != "" && len(cur)+1+len(w) > width {
			lines = append(lines, cur)
			cur = "  " + w
			continue
		}
		if cur == "" {
			cur = w
		} else {
			cur += " " + w
		}
	}
	return append(lines, cur)
}

// fmtCounter formats a trace counter; a negative one is one the engine did not measure.
func fmtCounter(n int64) string {
	if n < 0 {
		return "-"
	}
	return fmtCount(n)
}

// fmtSI formats a large amount compactly with three significant digits: 950, 12.3 k, 268 M.
func fmtSI(x float64) string {
	for _, u := range []struct {
		v float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if x >= u.v {
			return strconv.FormatFloat(x/u.v, 'g', 3, 64) + " " + u.s
		}
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}
