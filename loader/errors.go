package loader

import (
	"fmt"
	"strconv"
)

// ParseError is malformed input: the file, the line (or, for binary input, the byte offset)
// and what was expected there. Its message reads "loader: FILE:LINE: what was expected".
type ParseError struct {
	File   string
	Line   int64 // 1-based; 0 when the error has no line
	Offset int64 // byte offset, used when Line is 0 and Offset >= 0
	Msg    string
}

func (e *ParseError) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("loader: %s:%d: %s", e.File, e.Line, e.Msg)
	case e.Offset >= 0:
		return fmt.Sprintf("loader: %s: byte %d: %s", e.File, e.Offset, e.Msg)
	}
	return fmt.Sprintf("loader: %s: %s", e.File, e.Msg)
}

func lineErr(file string, line int64, format string, args ...any) *ParseError {
	return &ParseError{File: file, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

func fileErr(file string, format string, args ...any) *ParseError {
	return &ParseError{File: file, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

func offsetErr(file string, off int64, format string, args ...any) *ParseError {
	return &ParseError{File: file, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// token returns the text at data[i:] up to the next separator or line end, quoted and cut
// short, for error messages.
func token(data []byte, i int) string {
	j := i
	for j < len(data) && j-i < 24 {
		c := data[j]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' {
			break
		}
		j++
	}
	if j == i {
		if i >= len(data) || data[i] == '\n' || data[i] == '\r' {
			return "the end of the line"
		}
		return strconv.QuoteRune(rune(data[i]))
	}
	s := strconv.Quote(string(data[i:j]))
	if j < len(data) && j-i >= 24 {
		s += "..."
	}
	return s
}
