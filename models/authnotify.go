package models

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// ChangeChannel is the PostgreSQL channel the triggers notify, with the
// table's name, whenever a user, role, token (migration 5) or feature flag
// changes. Its name is from its first use, the callers.
const ChangeChannel = "plaza_auth"

// ListenerName is the application_name of the listener's connection.
const ListenerName = "plaza change listener"

// listenCheck is how long the listener waits for news before it pings its
// connection, so that a connection lost without a word is noticed.
const listenCheck = 15 * time.Second

// ListenChanges calls changed with the table's name for every notification
// on ChangeChannel until ctx ends, on a connection of its own to the PostgreSQL database dsn
// names. It calls listening(true) once it is listening and listening(false)
// as soon as it may miss news (connection lost; it reconnects with backoff),
// so that whoever relies on the news can stop relying on it.
func ListenChanges(ctx context.Context, dsn string, log *slog.Logger, listening func(bool), changed func(table string)) {
	wait := time.Second
	for {
		err := listen(ctx, dsn, listening, changed)
		listening(false)
		if ctx.Err() != nil {
			return
		}
		log.Warn("change listener lost its connection; callers and flags are read afresh until it is back", "error", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

func listen(ctx context.Context, dsn string, listening func(bool), changed func(table string)) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return err
	}
	cfg.RuntimeParams["application_name"] = ListenerName // to tell it apart in pg_stat_activity
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+ChangeChannel); err != nil {
		return err
	}
	listening(true)
	for {
		waitCtx, cancel := context.WithTimeout(ctx, listenCheck)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		switch {
		case err == nil:
			changed(n.Payload)
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			if err := ping(ctx, conn); err != nil {
				return err
			}
		default:
			return err
		}
	}
}

func ping(ctx context.Context, conn *pgx.Conn) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return conn.Ping(ctx)
}
