// Package safefile replaces files atomically, so that a failed write never destroys a good file.
package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Write creates or replaces path with what fill writes, as rclone's and Go's own tooling do:
// into a temporary file in the same folder, synced to disk, then renamed over path. path holds
// either its old content or the whole new one, never part of it: a failed write (a full disk,
// a quota) leaves an existing file as it was, creates no empty file and removes the temporary
// one. A new file gets mode 0666 less the umask, as os.Create gives; a replaced one keeps its
// mode.
func Write(path string, fill func(w *bufio.Writer) error) (err error) {
	mode := fs.FileMode(0o666) &^ umask()
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file: nothing written", path)
		}
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("writing %s: %w (nothing written: an earlier file there is unchanged)", path, unwrapPath(err))
		}
	}()
	var w io.Writer = tmp
	if testHookWriter != nil {
		w = testHookWriter(w)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if err = fill(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// unwrapPath drops the temporary file's name from an error: it names a file that is gone.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// testHookWriter, when set, wraps the temporary file's writer (tests inject write errors).
var testHookWriter func(io.Writer) io.Writer

// FailWritesAfter makes every later Write fail with err once n bytes have been written to a
// file (a full disk), until the returned function is called. For tests.
func FailWritesAfter(n int64, err error) (restore func()) {
	testHookWriter = func(w io.Writer) io.Writer { return &failingWriter{w: w, left: n, err: err} }
	return func() { testHookWriter = nil }
}

type failingWriter struct {
	w    io.Writer
	left int64
	err  error
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > f.left {
		k, _ := f.w.Write(p[:f.left])
		f.left = 0
		return k, f.err
	}
	f.left -= int64(len(p))
	return f.w.Write(p)
}

// umask returns the process's file mode creation mask, read from /proc (Linux 4.7 and later)
// without changing it; 022 where it cannot be read.
func umask() fs.FileMode {
	b, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return fs.FileMode(m)
				}
			}
		}
	}
	return 0o022
}
