package actions

import (
	"context"
	"fmt"

	"github.com/plazahq/plaza/models"
)

// authorNotice is what the author's inbox says of each decision.
var authorNotice = map[string]struct{ title, kind string }{
	"approve": {"Your post was approved", "success"},
	"hide":    {"Your post was hidden", "warning"},
	"flag":    {"Your post was flagged for review", "warning"},
	"delete":  {"Your post was removed", "critical"},
	"dismiss": {"Reports on your post were dismissed", "success"},
}

// reporterNotice is what a reporter's inbox says of the decision on the
// post they reported: the outcome in words.
func reporterNotice(action string) string {
	switch action {
	case "hide":
		return "Thanks: the post you reported was hidden"
	case "delete":
		return "Thanks: the post you reported was removed"
	}
	return "Thanks for your report: we reviewed the post and left it up"
}

// notifyDecision writes the notices decision m asks for, in the change
// under way: the author's, with the reason, and one for each reporter
// whose report it settled.
func (a *Actions) notifyDecision(ctx context.Context, d models.Decided, m Moderation) error {
	var notes []models.Notification
	if m.NotifyAuthor {
		n := authorNotice[m.Action]
		msg := fmt.Sprintf("%q", d.Title)
		if m.Reason != "" {
			msg = fmt.Sprintf("%q: %s", d.Title, m.Reason)
		}
		notes = append(notes, models.Notification{UserID: d.AuthorID, Title: n.title, Message: msg, Type: n.kind})
	}
	if m.NotifyReporters {
		kind := "info"
		if models.ReportSettled(m.Action) {
			kind = "success"
		}
		for _, id := range d.Reporters {
			notes = append(notes, models.Notification{UserID: id, Title: reporterNotice(m.Action), Message: fmt.Sprintf("%q", d.Title), Type: kind})
		}
	}
	return a.Store.Notices.Notify(ctx, notes)
}
