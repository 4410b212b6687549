package handlers

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/internal/csvout"
)

// flushRows is how many rows a streamed file sends at a time.
const flushRows = 1000

// attach answers 200 with an attachment of type contentType named name,
// headers sent, ready for its rows.
func attach(c echo.Context, contentType, name string) *echo.Response {
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, contentType)
	res.Header().Set(echo.HeaderContentDisposition, fmt.Sprintf("attachment; filename=%q", name))
	res.WriteHeader(http.StatusOK)
	return res
}

// streamCSV answers a CSV attachment named name: the header, then each
// row each calls row with, sent every flushRows rows. Nothing is sent
// before the first row (or the end), so a query that fails to start
// answers its error as usual; once rows are sent the status cannot
// change, and a failure ends the body early (the client sees a file cut
// short) and is logged.
func streamCSV(c echo.Context, log *slog.Logger, name string, header []string, each func(row func(...string) error) error) error {
	var res *echo.Response
	var w *csvout.Writer
	open := func() error {
		res = attach(c, "text/csv; charset=utf-8", name)
		w = csvout.New(res)
		return w.Row(header...)
	}
	rows := 0
	err := each(func(cells ...string) error {
		if w == nil {
			if err := open(); err != nil {
				return err
			}
		}
		if rows++; rows%flushRows == 0 {
			if err := w.Flush(); err != nil {
				return err
			}
			res.Flush()
		}
		return w.Row(cells...)
	})
	switch {
	case err != nil && w == nil:
		return err
	case err == nil && w == nil:
		err = open()
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		log.Warn("streamed file cut short", "file", name, "rows", rows, "error", err)
	}
	return nil
}

// streamJSONL answers a JSON Lines attachment named name: each value each
// calls line with, one a line, sent every flushRows lines; a failure as
// streamCSV's.
func streamJSONL(c echo.Context, log *slog.Logger, name string, each func(line func(any) error) error) error {
	var res *echo.Response
	var enc *json.Encoder
	rows := 0
	err := each(func(v any) error {
		if enc == nil {
			res = attach(c, "application/x-ndjson", name)
			enc = json.NewEncoder(res)
		}
		if rows++; rows%flushRows == 0 {
			res.Flush()
		}
		return enc.Encode(v)
	})
	switch {
	case err != nil && enc == nil:
		return err
	case err == nil && enc == nil:
		attach(c, "application/x-ndjson", name)
	case err != nil:
		log.Warn("streamed file cut short", "file", name, "rows", rows, "error", err)
	}
	return nil
}
