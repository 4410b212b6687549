package api

import (
	"reflect"
	"strconv"
	"testing"
)

// TestDocumentedLimitsAreTheConstants: what the OpenAPI document says of a
// field's length (maxLength) is the constant its check uses, so a limit is
// written once and its documentation follows it.
func TestDocumentedLimitsAreTheConstants(t *testing.T) {
	for _, tt := range []struct {
		body  any
		field string
		want  int
	}{
		{V1ModerationRequest{}, "Reason", MaxModerationReason},
		{V1ModerationRequest{}, "Notes", MaxAdminNotes},
		{V1BulkModeration{}, "Reason", MaxModerationReason},
		{V1BulkModeration{}, "Notes", MaxAdminNotes},
		{V1BlockRequest{}, "Reason", MaxBlockReason},
		{V1UserUpdate{}, "Notes", MaxAdminNotes},
		{V1NewNote{}, "Body", MaxAdminNotes},
	} {
		f, ok := reflect.TypeOf(tt.body).FieldByName(tt.field)
		if !ok {
			t.Fatalf("%T has no field %s", tt.body, tt.field)
		}
		if got := f.Tag.Get("maxLength"); got != strconv.Itoa(tt.want) {
			t.Errorf("%T.%s documents maxLength %q; its check allows %d", tt.body, tt.field, got, tt.want)
		}
	}
}
