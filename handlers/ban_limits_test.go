package handlers_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestActionLimitsDocumentedAsTheActionsDefineThem: the API documents the
// actions' limits (maxLength in the OpenAPI document) as the action
// defines them, so the number is written once and the docs follow it.
func TestActionLimitsDocumentedAsTheActionsDefineThem(t *testing.T) {
	for _, tt := range []struct {
		body       any
		field, tag string
		want       int
	}{
		{api.V1BanRequest{}, "Reason", "maxLength", actions.MaxBanReason},
		{api.V1FlagUpdate{}, "Description", "maxLength", actions.MaxFlagDescription},
		{api.WebhookRequest{}, "Description", "maxLength", actions.MaxWebhookDescription},
		{api.V1BroadcastRequest{}, "Title", "maxLength", actions.MaxBroadcastTitle},
		{api.V1BroadcastRequest{}, "Message", "maxLength", actions.MaxBroadcastMessage},
		{api.SilenceRequest{}, "Reason", "maxLength", actions.MaxSilenceReason},
		{api.WebhookPatch{}, "Description", "maxLength", actions.MaxWebhookDescription},
		{api.V1BanRequest{}, "Notes", "maxLength", actions.MaxBanNotes},
		{api.AdminBanRequest{}, "Reason", "maxLength", actions.MaxBanReason},
		{api.AdminBanRequest{}, "Notes", "maxLength", actions.MaxBanNotes},
		{api.V1UserUpdate{}, "Reason", "maxLength", actions.MaxBanReason},
		{api.NewPost{}, "Title", "maxLength", actions.MaxPostTitle},
		{api.NewPost{}, "Content", "maxLength", actions.MaxPostContent},
		{api.NewPost{}, "Tags", "maxItems", actions.MaxPostTags},
		{api.PostUpdate{}, "Title", "maxLength", actions.MaxPostTitle},
		{api.PostUpdate{}, "Content", "maxLength", actions.MaxPostContent},
		{api.PostUpdate{}, "Tags", "maxItems", actions.MaxPostTags},
		{api.ReportRequest{}, "Reason", "maxLength", actions.MaxReportReason},
		{api.ReportRequest{}, "Comment", "maxLength", actions.MaxReportComment},
		{api.Registration{}, "Name", "maxLength", actions.MaxName},
		{api.Registration{}, "Email", "maxLength", actions.MaxEmail},
		{api.Registration{}, "Answer", "maxLength", actions.MaxApplicationAnswer},
		{api.RegistrationChange{}, "Question", "maxLength", actions.MaxApplicationQuestion},
		{api.RegistrationChange{}, "PauseHours", "maximum", actions.MaxPauseHours},
		{api.ProfileUpdate{}, "Name", "maxLength", actions.MaxName},
		{api.ProfileUpdate{}, "Bio", "maxLength", actions.MaxBio},
		{api.ProfileUpdate{}, "Location", "maxLength", actions.MaxLocation},
		{api.ProfileUpdate{}, "Image", "maxLength", actions.MaxImage},
		{api.NewAccountPostsChange{}, "HoldFirst", "maximum", actions.MaxHoldFirst},
		{api.NewAccountPostsChange{}, "HoldDays", "maximum", actions.MaxHoldDays},
		{api.NewAccountPosts{}, "HoldFirst", "maximum", actions.MaxHoldFirst},
		{api.NewAccountPosts{}, "HoldDays", "maximum", actions.MaxHoldDays},
	} {
		f, ok := reflect.TypeOf(tt.body).FieldByName(tt.field)
		if !ok {
			t.Fatalf("%T has no field %s", tt.body, tt.field)
		}
		if got := f.Tag.Get(tt.tag); got != strconv.Itoa(tt.want) {
			t.Errorf("%T.%s documents %s %q; the action's limit is %d", tt.body, tt.field, tt.tag, got, tt.want)
		}
	}
}

// TestBanInputCheckedByTheAction: the ban action checks its reason and
// notes once, and each door answers its family's validation error: 422
// {field, reason} on the versioned family, 400 with zod's issues (code
// too_small or too_big) on the unversioned one. A reason at the limit bans.
func TestBanInputCheckedByTheAction(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		super, _ := app.Admin(t)
		u := app.User(t, "member@example.com")
		long := strings.Repeat("é", actions.MaxBanReason+1)
		longNotes := strings.Repeat("n", actions.MaxBanNotes+1)
		v1 := api.AdminV1UserPath(u.ID) + "/ban"
		for body, field := range map[string]string{
			`{"action":"ban","reason":"` + long + `"}`:                  "reason",
			`{"action":"ban","reason":"   "}`:                           "reason",
			`{"action":"ban","reason":"x","notes":"` + longNotes + `"}`: "notes",
		} {
			wantInvalid(t, app, "POST", v1, super, body, field)
		}
		wantInvalid(t, app, "PUT", api.AdminV1UserPath(u.ID), super, `{"status":"banned","reason":"`+long+`"}`, "reason")
		for body, want := range map[string]api.ZodIssue{
			`{"reason":"` + long + `"}`:                  {Code: "too_big", Path: []string{"reason"}},
			`{"reason":" "}`:                             {Code: "too_small", Path: []string{"reason"}},
			`{"reason":"x","notes":"` + longNotes + `"}`: {Code: "too_big", Path: []string{"notes"}},
		} {
			res := apptest.DoBody(t, app, "POST", api.AdminUserBanPath(u.ID), super, body)
			var got struct{ Details []api.ZodIssue }
			json.Unmarshal(res.Body.Bytes(), &got)
			if res.Code != 400 || len(got.Details) != 1 || got.Details[0].Code != want.Code || !slices.Equal(got.Details[0].Path, want.Path) {
				t.Errorf("unversioned ban %.40s: %d %s, want 400 %s on %v", body, res.Code, res.Body, want.Code, want.Path)
			}
		}
		if res := apptest.DoBody(t, app, "POST", v1, super, `{"action":"ban","reason":"`+long[:len(long)-2]+`"}`); res.Code != 200 {
			t.Errorf("a reason of %d characters: %d %s", actions.MaxBanReason, res.Code, res.Body)
		}
	})
}
