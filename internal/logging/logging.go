// Package logging holds small helpers around log/slog.
package logging

import (
	"context"
	"log/slog"
)

// Demote returns a logger that writes log's records below level at Debug
// level: below slog.LevelWarn for chatty libraries (the job queue's
// start-up and migration lines), below slog.LevelError for parts that
// must not bury a first start's banner. Records at level or above pass
// unchanged.
func Demote(log *slog.Logger, below slog.Level) *slog.Logger {
	return slog.New(demoted{log.Handler(), below})
}

type demoted struct {
	next  slog.Handler
	below slog.Level
}

func (d demoted) Enabled(ctx context.Context, l slog.Level) bool {
	return d.next.Enabled(ctx, d.demote(l))
}

func (d demoted) Handle(ctx context.Context, r slog.Record) error {
	r.Level = d.demote(r.Level)
	return d.next.Handle(ctx, r)
}

func (d demoted) WithAttrs(as []slog.Attr) slog.Handler {
	return demoted{d.next.WithAttrs(as), d.below}
}

func (d demoted) WithGroup(name string) slog.Handler {
	return demoted{d.next.WithGroup(name), d.below}
}

func (d demoted) demote(l slog.Level) slog.Level {
	if l >= slog.LevelDebug && l < d.below {
		return slog.LevelDebug
	}
	return l
}
