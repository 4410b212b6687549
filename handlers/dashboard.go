package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/views"
)

// Dashboard answers GET /admin, the console's landing page.
type Dashboard struct {
	Health Health
}

// Handle renders the dashboard.
func (h Dashboard) Handle(c echo.Context) error {
	return render(c, http.StatusOK, views.DashboardPage(h.Health.Check(c.Request().Context())))
}
