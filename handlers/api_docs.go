package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

// APIDocs answers GET /api/docs: the API reference, a viewer vendored into
// static/ reading /api/openapi.json from this origin.
type APIDocs struct{}

// Handle renders the reference page.
func (APIDocs) Handle(c echo.Context) error {
	return render(c, http.StatusOK, views.APIDocsPage(api.PathOpenAPI))
}
