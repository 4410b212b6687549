package views

import "github.com/a-h/templ"

// invalidAttrs marks a control whose field the server refused, pointing
// at the complaint (id errID) under it.
func invalidAttrs(errID, msg string) templ.Attributes {
	if msg == "" {
		return templ.Attributes{}
	}
	return templ.Attributes{"aria-invalid": "true", "aria-describedby": errID}
}
