package web

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"time"
)

// raceAttempts is how many times a request whose unit of work lost a race
// for its rows runs (the first time included) before its error is
// answered.
const raceAttempts = 4

// raceBackoff waits a few milliseconds, more on each attempt and jittered
// so that two requests that raced do not meet again in step; false when
// the caller went away meanwhile.
func raceBackoff(ctx context.Context, attempt int) bool {
	d := time.Duration(attempt)*5*time.Millisecond + rand.N(10*time.Millisecond)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// replayBody keeps what the handler read of a request body, so that the
// request can run again from the start of its body: the bytes read are
// given again, then the rest is read as before (with the body's limit and
// its errors unchanged). Bodies are capped at 1 MiB before this.
type replayBody struct {
	src  io.ReadCloser
	seen []byte
	at   int
}

// replayable makes req's body readable again after rewind; a request
// without a body needs nothing.
func replayable(req *http.Request) *replayBody {
	if req.Body == nil || req.Body == http.NoBody {
		return nil
	}
	b := &replayBody{src: req.Body}
	req.Body = b
	return b
}

func (b *replayBody) Read(p []byte) (int, error) {
	if b.at < len(b.seen) {
		n := copy(p, b.seen[b.at:])
		b.at += n
		return n, nil
	}
	n, err := b.src.Read(p)
	b.seen = append(b.seen, p[:n]...)
	b.at += n
	return n, err
}

func (b *replayBody) Close() error { return b.src.Close() }

// rewind starts the body again from its first byte; true, as a request
// without a body has nothing to rewind.
func (b *replayBody) rewind() bool {
	if b != nil {
		b.at = 0
	}
	return true
}
