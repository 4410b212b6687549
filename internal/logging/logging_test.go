package logging

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestDemote(t *testing.T) {
	var buf bytes.Buffer
	log := Demote(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})).With("component", "jobs"), slog.LevelWarn)
	log.Info("chatty")
	log.Debug("chattier")
	log.Warn("worth reading")
	log.Error("worth reading too")
	got := buf.String()
	if strings.Contains(got, "chatty") || !strings.Contains(got, "level=WARN msg=\"worth reading\" component=jobs") ||
		!strings.Contains(got, "level=ERROR") {
		t.Errorf("got %q, want only the warning and the error", got)
	}

	buf.Reset()
	debug := Demote(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), slog.LevelError)
	debug.Warn("shown at debug")
	if !strings.Contains(buf.String(), "level=DEBUG msg=\"shown at debug\"") {
		t.Errorf("got %q, want the warning at debug level", buf.String())
	}
}
