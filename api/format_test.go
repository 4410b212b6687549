package api

import (
	"net/http/httptest"
	"testing"
)

func TestFormatOf(t *testing.T) {
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	tests := []struct {
		name, accept, contentType string
		htmx, boosted             bool
		want                      Format
	}{
		{"no headers: an API client", "", "", false, false, FormatJSON},
		{"fetch's default", "*/*", "", false, false, FormatJSON},
		{"asks for JSON", "application/json", "", false, false, FormatJSON},
		{"JSON body", "", "application/json", false, false, FormatJSON},
		{"browser navigation", browser, "", false, false, FormatPage},
		{"browser form post", browser, "application/x-www-form-urlencoded", false, false, FormatPage},
		{"plain form post", "", "application/x-www-form-urlencoded", false, false, FormatPage},
		{"multipart form", "*/*", "multipart/form-data; boundary=x", false, false, FormatPage},
		{"form asking for JSON", "application/json", "application/x-www-form-urlencoded", false, false, FormatJSON},
		{"JSON preferred to HTML", "application/json, text/html;q=0.5", "", false, false, FormatJSON},
		{"HTML preferred to JSON", "text/html, application/json;q=0.5", "", false, false, FormatPage},
		{"HTML refused", "text/html;q=0", "", false, false, FormatJSON},
		{"htmx", "*/*", "", true, false, FormatPartial},
		{"htmx with a browser's Accept", browser, "", true, false, FormatPartial},
		{"boosted htmx navigation", browser, "", true, true, FormatPage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", nil)
			if tt.accept != "" {
				r.Header.Set("Accept", tt.accept)
			}
			if tt.contentType != "" {
				r.Header.Set("Content-Type", tt.contentType)
			}
			if tt.htmx {
				r.Header.Set("HX-Request", "true")
			}
			if tt.boosted {
				r.Header.Set("HX-Boosted", "true")
			}
			if got := FormatOf(r); got != tt.want {
				t.Errorf("FormatOf = %v, want %v", got, tt.want)
			}
		})
	}
}
