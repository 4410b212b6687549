package views

import (
	"net/url"
	"strconv"

	"github.com/plazahq/plaza/api"
)

// NewAccountsForm is the "New accounts" page's card of the hold of new
// accounts' posts: the setting, and what the page has to say about it.
type NewAccountsForm struct {
	Setting api.NewAccountPosts
	// MayEdit says the viewer may change it (the policy's answer);
	// others see it read-only.
	MayEdit bool
	// MaxFirst and MaxDays are the action's limits, for the inputs.
	MaxFirst, MaxDays int
	// Saved says a plain form's post was stored; Sent is the form as a
	// refused post sent it, and Errors what it was refused, by field (""
	// for the form as a whole).
	Saved  bool
	Sent   url.Values
	Errors map[string]string
}

// value is what the input of field shows: as sent, when a refused post
// sent it, else the stored number.
func (f NewAccountsForm) value(field string, stored int) string {
	if f.Sent != nil && f.Sent.Has(field) {
		return f.Sent.Get(field)
	}
	return strconv.Itoa(stored)
}
