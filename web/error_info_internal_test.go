package web

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// TestErrorInfoInWords: the statuses no console page is easy to drive to
// (400, 500, 503) still get a page in words and a way back.
func TestErrorInfoInWords(t *testing.T) {
	for _, c := range []struct {
		err         error
		status      int
		title, says string
		back        string
	}{
		{echo.NewHTTPError(http.StatusBadRequest), 400, "This page cannot show what the link asks for", "Bad Request.", "/admin/users"},
		{errors.New("boom"), 500, "Something went wrong on our side", "request id req-7", "/admin/users?limit=5"},
		{api.CollectUnavailable(errors.New("down")), 503, "Plaza is unavailable for a moment", "Try again in a few seconds", "/admin/users?limit=5"},
	} {
		e := echo.New()
		rec := httptest.NewRecorder()
		ctx := e.NewContext(httptest.NewRequest(http.MethodGet, "/admin/users?limit=5", nil), rec)
		ctx.Response().Header().Set(echo.HeaderXRequestID, "req-7")
		info := errorInfo(ctx, classify(c.err))
		if info.Status != c.status || info.Title != c.title || !strings.Contains(info.Message, c.says) || info.Back != c.back {
			t.Errorf("%d: %+v", c.status, info)
		}
	}
}
