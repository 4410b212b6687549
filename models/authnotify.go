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
	listenOn(ctx, dsn, log, ListenerName, ChangeChannel, listening, changed)
}

// listenOn calls heard with the payload of every notification on channel
// until ctx ends, on a connection of its own named name, reconnecting with
// backoff; listening as ListenChanges's.
func listenOn(ctx context.Context, dsn string, log *slog.Logger, name, channel string, listening func(bool), heard func(payload string)) {
	wait := time.Second
	for {
		listened := false
		err := listen(ctx, dsn, name, channel, func(on bool) {
			listened = listened || on
			listening(on)
		}, heard)
		listening(false)
		if ctx.Err() != nil {
			return
		}
		if listened {
			wait = time.Second // a new outage starts again from the shortest wait
		}
		log.Warn("listener lost its connection; what relies on its news stops relying on it until it is back", "listener", name, "error", err, "retry_in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

func listen(ctx context.Context, dsn, name, channel string, listening func(bool), heard func(payload string)) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return err
	}
	cfg.RuntimeParams["application_name"] = name // to tell it apart in pg_stat_activity
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	listening(true)
	for {
		waitCtx, cancel := context.WithTimeout(ctx, listenCheck)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		switch {
		case err == nil:
			heard(n.Payload)
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
