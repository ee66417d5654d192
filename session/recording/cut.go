package recording

import (
	"fmt"
	"io"
)

// CutError is a record cut short by a failed write (a full disk, a
// file-size limit): the file holds every chunk written before, ends
// without an end marker, and reads back as truncated (record.Read sets
// Truncated). The server that wrote it played on.
type CutError struct {
	Path  string
	Bytes int64 // the file's length: its complete chunks
	Err   error // the writer's error, naming the ticks it could not write
}

func (e *CutError) Error() string {
	return fmt.Sprintf("record %s truncated at %d bytes, play went on: %v", e.Path, e.Bytes, e.Err)
}

// Unwrap returns the write's error.
func (e *CutError) Unwrap() error { return e.Err }

// counter passes each write to out and counts the bytes of the writes
// that completed. The record writer writes each chunk in one Write, so the
// count is where the last complete chunk ends.
type counter struct {
	out  io.Writer
	good int64
	err  error // the first write's error
}

func (c *counter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.out.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
		return n, err
	}
	c.good += int64(n)
	return n, nil
}
