package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

type loggerKey struct{}

// requestLogger is the request's logger, carrying its request_id.
func requestLogger(c echo.Context, fallback *slog.Logger) *slog.Logger {
	if l, ok := c.Request().Context().Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return fallback
}

// recoverer turns a panic into a 500 through the error handler; the stack
// goes to the log only.
func recoverer() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				if r := recover(); r != nil {
					if r == http.ErrAbortHandler { //nolint:errorlint // sentinel compared by identity, as net/http does
						panic(r)
					}
					err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
				}
			}()
			return next(c)
		}
	}
}

// accessLog writes one structured line per request and gives handlers and
// the error handler a logger that carries the request id.
func accessLog(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			id := c.Response().Header().Get(echo.HeaderXRequestID)
			l := log.With("request_id", id)
			req := c.Request()
			c.SetRequest(req.WithContext(context.WithValue(req.Context(), loggerKey{}, l)))
			err := next(c)
			if err != nil {
				c.Error(err) // renders now, so the line below logs the real status
			}
			l.LogAttrs(req.Context(), slog.LevelInfo, "request",
				slog.String("method", req.Method),
				slog.String("route", c.Path()),
				slog.String("path", req.URL.Path),
				slog.Int("status", c.Response().Status),
				slog.Int64("bytes", c.Response().Size),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
			)
			return nil
		}
	}
}

// securityHeaders sets the headers every response carries. Plaza loads no
// third-party resources, so the policy allows its own origin only.
func securityHeaders(publicURL string) echo.MiddlewareFunc {
	cfg := middleware.SecureConfig{
		XSSProtection:         "0",
		ContentTypeNosniff:    "nosniff",
		XFrameOptions:         "DENY",
		ReferrerPolicy:        "strict-origin-when-cross-origin",
		ContentSecurityPolicy: "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
	}
	if u, err := url.Parse(publicURL); err == nil && u.Scheme == "https" {
		cfg.HSTSMaxAge = 63072000
	}
	return middleware.SecureWithConfig(cfg)
}
