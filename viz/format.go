package viz

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// Human formats a count compactly: 950, 12.3k, 4.5M, 1.2G.
func Human(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e12:
		return trimZero(v/1e12) + "T"
	case a >= 1e9:
		return trimZero(v/1e9) + "G"
	case a >= 1e6:
		return trimZero(v/1e6) + "M"
	case a >= 1e4:
		return trimZero(v/1e3) + "k"
	case a == math.Trunc(a):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

func trimZero(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s
}

// Duration formats a duration with three significant digits: 812ns, 4.21µs, 13.2ms, 1.50s.
func Duration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0"
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return sig3(float64(d)/1e3) + "µs"
	case d < time.Second:
		return sig3(float64(d)/1e6) + "ms"
	}
	return sig3(d.Seconds()) + "s"
}

func sig3(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// Sig3 formats a number with three significant digits, as the session's tables print times in
// milliseconds: 0.504, 1.50, 12.3, 123. The bounds are where rounding reaches the next decade,
// so 0.9996 is 1.00, not 1.000.
func Sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 99.95:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 9.995:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 0.9995:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// Count formats a quantity as a count with thousands separators (57,460); values under 1000
// keep four significant digits (0.0125, 312.5).
func Count(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if math.Abs(v) < 1000 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	n := int64(math.Round(v))
	neg := n < 0
	if neg {
		n = -n
	}
	d := strconv.FormatInt(n, 10)
	var b []byte
	if neg {
		b = append(b, '-')
	}
	for i := range len(d) {
		if i > 0 && (len(d)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, d[i])
	}
	return string(b)
}
