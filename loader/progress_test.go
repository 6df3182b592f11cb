package loader

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the progress goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls buf until it contains want (the progress line is drawn by a ticker).
func waitFor(t *testing.T, buf *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(buf.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("progress output %q lacks %q", buf.String(), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestProgressLine(t *testing.T) {
	var buf syncBuffer
	p := newProgress(&buf, "load big.el")
	p.phaseBytes("parse", 200e6)
	p.add(50e6)
	waitFor(t, &buf, "\r\x1b[Kload big.el: parse 50.0 MB / 200.0 MB (25%, ") // then the rate
	waitFor(t, &buf, " MB/s)")
	p.phase("sort", 100)
	p.add(40)
	waitFor(t, &buf, "load big.el: sort 40% (")
	waitFor(t, &buf, "/s)")
	p.finish()
	if out := buf.String(); !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress line not cleared at the end: %q", out)
	}
}

func TestProgressQuiet(t *testing.T) {
	var p *progress // nil: every method is a no-op
	p.phase("x", 1)
	p.add(1)
	p.finish()
	var buf syncBuffer
	opt := DefaultOptions()
	opt.Progress = &buf
	mustLoad(t, filepath.Join(graphsDir, "chesapeake.mtx"), opt)
	if buf.String() != "" {
		t.Errorf("a short load drew progress: %q", buf.String())
	}
	if _, err := Generate(context.Background(), "grid", map[string]string{"rows": "3"}, &buf); err != nil || buf.String() != "" {
		t.Errorf("a short generation drew progress: %q %v", buf.String(), err)
	}
}
