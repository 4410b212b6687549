package quotes

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Pool keeps fetched quotes at hand. Next never touches the network: it
// hands out a fresh quote when there is one, else one handed out before,
// else a built-in quote; Run fetches in the background to keep up to size
// fresh quotes, pausing Interval between fetches and backing off while the
// sources fail.
type Pool struct {
	cfg  Config
	size int
	log  *slog.Logger

	mu      sync.Mutex
	fresh   []Quote // not handed out yet, oldest first
	recent  []Quote // handed out, a ring of up to size
	next    int     // where the ring writes next
	closed  bool
	stop    chan struct{}
	wake    chan struct{}
	running sync.WaitGroup
}

const (
	defaultInterval = 2 * time.Second
	maxBackoff      = 5 * time.Minute
)

// NewPool returns a pool of up to size fresh quotes (at least 1). It does
// not start fetching: call Run (or Start).
func NewPool(cfg Config, size int, log *slog.Logger) *Pool {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Pool{
		cfg:  cfg,
		size: max(size, 1),
		log:  log,
		stop: make(chan struct{}),
		wake: make(chan struct{}, 1),
	}
}

// Next returns a quote at once. It takes ctx for symmetry with callers that
// pass one everywhere; it never blocks.
func (p *Pool) Next(ctx context.Context) Quote {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.fresh) > 0 {
		q := p.fresh[0]
		p.fresh = p.fresh[1:]
		if len(p.recent) < p.size {
			p.recent = append(p.recent, q)
		} else {
			p.recent[p.next] = q
		}
		p.next = (p.next + 1) % p.size
		p.signal()
		return q
	}
	if len(p.recent) > 0 {
		i := min(int(p.cfg.rand()*float64(len(p.recent))), len(p.recent)-1)
		return p.recent[i]
	}
	return randomBuiltin(p.cfg.rand())
}

// Len returns the number of fresh quotes waiting.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.fresh)
}

func (p *Pool) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Start runs Run in a goroutine of its own.
func (p *Pool) Start(ctx context.Context) {
	if !p.enter() {
		return
	}
	go func() {
		defer p.running.Done()
		p.run(ctx)
	}()
}

// Run fills the pool until ctx ends or Close is called.
func (p *Pool) Run(ctx context.Context) {
	if !p.enter() {
		return
	}
	defer p.running.Done()
	p.run(ctx)
}

func (p *Pool) enter() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.running.Add(1)
	return true
}

// Close stops Run, cancelling a fetch in flight, and waits for it to
// return. It may be called more than once.
func (p *Pool) Close() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.stop)
	}
	p.mu.Unlock()
	p.running.Wait()
}

func (p *Pool) run(ctx context.Context) {
	if len(p.cfg.sources()) == 0 {
		p.log.Info("quote pool: no quote source configured, serving built-in quotes")
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-p.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	interval := p.cfg.Interval
	if interval <= 0 {
		interval = defaultInterval
	}
	var backoff time.Duration
	failures := 0
	for {
		if p.Len() >= p.size {
			select {
			case <-p.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		q, err := Fetch(ctx, p.cfg)
		if ctx.Err() != nil {
			return
		}
		pause := interval
		if err != nil {
			backoff = min(max(2*backoff, interval), maxBackoff)
			pause = backoff
			// Offline hosts would otherwise warn on every retry: warn when
			// the sources stop answering, then only at debug level.
			level := slog.LevelDebug
			if failures == 0 {
				level = slog.LevelWarn
			}
			failures++
			if !errors.Is(err, context.Canceled) {
				p.log.Log(ctx, level, "quote pool: fetch failed; serving built-in quotes meanwhile", "error", err, "retry_in", backoff.String(), "failures", failures)
			}
		} else {
			if failures > 0 {
				p.log.Info("quote pool: sources answer again", "after_failures", failures)
			}
			backoff, failures = 0, 0
			p.add(q)
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}

// add queues q unless it is already waiting.
func (p *Pool) add(q Quote) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.fresh {
		if f == q {
			return
		}
	}
	p.fresh = append(p.fresh, q)
}
