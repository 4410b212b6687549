package views

import (
	"context"
	"strconv"

	"github.com/plazahq/plaza/api"
)

type queueKey struct{}

// WithQueueCount returns ctx carrying how many posts await a decision,
// for the sidebar's badge on a console page.
func WithQueueCount(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, queueKey{}, n)
}

// queueCount is the count ctx carries, and whether it carries one.
func queueCount(ctx context.Context) (int, bool) {
	n, ok := ctx.Value(queueKey{}).(int)
	return n, ok
}

func claimedByViewer(ctx context.Context, c *api.V1Claim) bool {
	v, _ := ViewerFrom(ctx)
	return c != nil && v.ID != 0 && c.By.ID == strconv.FormatInt(v.ID, 10)
}

func claimedByOther(ctx context.Context, c *api.V1Claim) bool {
	return c != nil && !claimedByViewer(ctx, c)
}

func claimHolder(c *api.V1Claim) string {
	if c == nil {
		return ""
	}
	return c.By.Username
}

func claimUntil(c *api.V1Claim) string {
	if c == nil {
		return ""
	}
	return c.ExpiresAt
}

// claimPostID is the post id of a queue row, which came from one.
func claimPostID(id string) int64 {
	n, _ := strconv.ParseInt(id, 10, 64)
	return n
}

// QueueLabel is what the queue's count counts: "7 posts awaiting review".
func QueueLabel(n int) string { return count(n) + " " + postsNoun(n) + " awaiting review" }

func postsNoun(n int) string {
	if n == 1 {
		return "post"
	}
	return "posts"
}

// ApplicationNewsKey is how the desk's page and its live news name the
// application of applicant id, apart from the posts' ids.
func ApplicationNewsKey(id string) string { return "application-" + id }

// applicationClaim is an application's claim as the claim note reads it.
func applicationClaim(c *api.V1ApplicationClaim) *api.V1Claim {
	if c == nil {
		return nil
	}
	return &api.V1Claim{PostID: c.ApplicationID, By: c.By, ClaimedAt: c.ClaimedAt, ExpiresAt: c.ExpiresAt}
}
