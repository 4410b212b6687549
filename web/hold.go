package web

import (
	"bytes"
	"maps"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/models"
)

// heldResponse keeps what a handler writes while its changes wait to
// commit, so that a client is never told of a change that then fails to
// commit. Responses written with nothing pending pass straight through.
type heldResponse struct {
	http.ResponseWriter
	resp   *echo.Response
	work   *models.Work
	header http.Header // the headers as the first change began
	held   bool
	status int
	body   bytes.Buffer
}

func holdResponse(resp *echo.Response, w *models.Work) *heldResponse {
	h := &heldResponse{ResponseWriter: resp.Writer, resp: resp, work: w}
	// A shallow copy (handlers replace a header's values, never edit them in
	// place), taken only when there is a change to hold the response for.
	w.OnBegin(func() { h.header = maps.Clone(resp.Header()) })
	resp.Writer = h
	return h
}

func (h *heldResponse) WriteHeader(code int) {
	if h.work.Pending() {
		h.held, h.status = true, code
		return
	}
	h.ResponseWriter.WriteHeader(code)
}

func (h *heldResponse) Write(b []byte) (int, error) {
	if h.held {
		return h.body.Write(b)
	}
	return h.ResponseWriter.Write(b)
}

// Flush sends what is written so far, unless it is held.
func (h *heldResponse) Flush() {
	if f, ok := h.ResponseWriter.(http.Flusher); ok && !h.held {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (h *heldResponse) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// release sends the held response, now that its changes are committed.
func (h *heldResponse) release() error {
	h.resp.Writer = h.ResponseWriter
	if !h.held {
		return nil
	}
	h.ResponseWriter.WriteHeader(h.status)
	_, err := h.ResponseWriter.Write(h.body.Bytes())
	return err
}

// discard drops the held response, whose changes failed to commit, and
// readies the response for the error that replaces it. A response already
// sent cannot be taken back; then nothing changes.
func (h *heldResponse) discard() {
	h.resp.Writer = h.ResponseWriter
	if !h.held {
		return
	}
	hdr := h.resp.Header()
	clear(hdr)
	maps.Copy(hdr, h.header)
	h.resp.Committed, h.resp.Status, h.resp.Size = false, http.StatusOK, 0
}
