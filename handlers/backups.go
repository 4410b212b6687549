package handlers

import (
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/backups"
	"github.com/plazahq/plaza/views"
)

// Backups answers the backup files' routes: list, download, delete. A
// download or a deletion asks a session for a fresh confirmation.
type Backups struct {
	Dir     string
	Actions *actions.Actions
}

// List answers GET /api/v1/admin/system/backups: newest first.
func (h Backups) List(c echo.Context) error {
	files, err := backups.List(h.Dir)
	if err != nil {
		return err
	}
	out := make([]api.V1Backup, len(files))
	for i, f := range files {
		out[i] = api.V1Backup{File: f.Name, SizeBytes: f.SizeBytes, CreatedAt: api.Timestamp(f.CreatedAt)}
	}
	return respond(c, http.StatusOK, api.OK(out), View{Partial: views.BackupTable(out), Page: views.BackupsPage(out)})
}

// Download answers GET /api/v1/admin/system/backups/{file}: the file,
// streamed as an attachment.
func (h Backups) Download(c echo.Context) error {
	ctx := c.Request().Context()
	f, info, err := h.Actions.OpenBackup(ctx, access.PrincipalFrom(ctx), h.Dir, c.Param("file"))
	if err != nil {
		return backupError(err)
	}
	defer f.Close()
	c.Response().Header().Set(echo.HeaderContentLength, strconv.FormatInt(info.SizeBytes, 10))
	res := attach(c, "application/octet-stream", info.Name)
	io.Copy(res, f) //nolint:errcheck // a client gone midway ends the copy; nothing is left to tell it
	return nil
}

// Delete answers DELETE /api/v1/admin/system/backups/{file}.
func (h Backups) Delete(c echo.Context) error {
	ctx := c.Request().Context()
	name := c.Param("file")
	if err := h.Actions.DeleteBackup(ctx, access.PrincipalFrom(ctx), h.Dir, name); err != nil {
		return backupError(err)
	}
	return respondAction(c, http.StatusOK, api.OK(api.DeletedBackup{Deleted: true, File: name}), Done{Toast: "Deleted " + name, Events: []string{"plaza:backups"}})
}

func backupError(err error) error {
	if errors.Is(err, backups.ErrNotFound) {
		return &api.Error{Status: http.StatusNotFound, Code: api.CodeNotFound, Message: "No such backup"}
	}
	return err
}
