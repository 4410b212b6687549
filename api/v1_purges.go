package api

import (
	"time"
)

// A spam wave's purge (docs/api.md, "Purges"): its routes.
const (
	PathAdminV1Purge        = PathAdminV1Users + "/purge"
	PathAdminV1PurgePreview = PathAdminV1Purge + "/preview"
	PathAdminV1Purges       = PathAdminV1 + "/purges"
	PathAdminV1PurgeOne     = PathAdminV1Purges + "/:id"
	PathAdminV1PurgeUndo    = PathAdminV1PurgeOne + "/undo"
	// PathConsolePurge is the console's page of one purge.
	PathConsolePurge = "/admin/purges/:id"
)

// AdminV1PurgePath is purge id in the versioned admin family.
func AdminV1PurgePath(id string) string { return PathAdminV1Purges + "/" + id }

// AdminV1PurgeUndoPath is where purge id is undone.
func AdminV1PurgeUndoPath(id string) string { return PathAdminV1Purges + "/" + id + "/undo" }

// ConsolePurgePath is the console's page of purge id.
func ConsolePurgePath(id string) string { return "/admin/purges/" + id }

// MaxPurgeAccounts is the most accounts a purge names (actions.MaxPurgeAccounts).
const (
	MaxPurgeAccounts = 500
)

// V1PurgeRequest is the body of POST /api/v1/admin/users/purge and of its
// preview.
type V1PurgeRequest struct {
	UserIDs        []string `json:"userIds" required:"true" minItems:"1" maxItems:"500" description:"The accounts ticked (strings of digits); a repeated id counts once."`
	Reason         string   `json:"reason" required:"true" minLength:"1" maxLength:"500" description:"What each ban and hide records."`
	BlockRanges    []string `json:"blockRanges,omitempty" maxItems:"20" description:"Address ranges to block with the purge, as for POST /api/v1/admin/blocks (an address or CIDR range); one blocked already is left as it is."`
	BlockDomains   []string `json:"blockDomains,omitempty" maxItems:"20" description:"Email domains to block with the purge (a domain covers its subdomains); one blocked already is left as it is."`
	BlockExpiresAt string   `json:"blockExpiresAt,omitempty" format:"date-time" description:"When the purge's blocks stop applying; none: never."`
}

// Check reads the request: the ids, and the blocks' expiry (nil: never).
// The reason, the number of blocks and their values are the purge
// action's to check.
func (r *V1PurgeRequest) Check(now time.Time) ([]int64, *time.Time, error) {
	ids, issues := idList("userIds", "user", r.UserIDs, MaxPurgeAccounts)
	var expires *time.Time
	if r.BlockExpiresAt != "" {
		at, err := time.Parse(time.RFC3339, r.BlockExpiresAt)
		switch {
		case err != nil:
			issues = append(issues, FieldIssue("blockExpiresAt", "invalid_string", "blockExpiresAt must be an RFC 3339 time"))
		case !at.After(now):
			issues = append(issues, FieldIssue("blockExpiresAt", "too_small", "blockExpiresAt must be in the future"))
		default:
			at = at.UTC()
			expires = &at
		}
	}
	if len(issues) > 0 {
		return nil, nil, Invalid(issues...)
	}
	return ids, expires, nil
}

// V1PurgeUndoRequest is the optional body of POST /api/v1/admin/purges/{id}/undo.
type V1PurgeUndoRequest struct {
	UserIDs []string `json:"userIds,omitempty" maxItems:"500" description:"Only these accounts of the purge (a legitimate one caught in it); none: every account not undone yet."`
}

// Check reads the ids (none: all).
func (r *V1PurgeUndoRequest) Check() ([]int64, error) {
	if len(r.UserIDs) == 0 {
		return nil, nil
	}
	ids, issues := idList("userIds", "user", r.UserIDs, MaxPurgeAccounts)
	if len(issues) > 0 {
		return nil, Invalid(issues...)
	}
	return ids, nil
}

// V1PurgePreview answers the preview: exactly what the purge would
// change now.
type V1PurgePreview struct {
	Accounts          []V1PurgeCandidate `json:"accounts" description:"Every account named, in id order, with what the purge would do to it."`
	ToBan             int                `json:"toBan" description:"Accounts the purge would ban."`
	AlreadyBanned     int                `json:"alreadyBanned" description:"Accounts banned already: left as they are."`
	PostsToHide       int                `json:"postsToHide" description:"Published and flagged posts of the accounts to ban."`
	SessionsToEnd     int                `json:"sessionsToEnd" description:"Live sessions of the accounts to ban (members hold no API tokens)."`
	Blocks            []V1PurgeBlockPlan `json:"blocks" description:"The blocks asked for, each new or held already."`
	BlocksToCreate    int                `json:"blocksToCreate"`
	Refused           []V1PurgeRefusal   `json:"refused" description:"Accounts the purge may not act on; with any, the purge is refused whole."`
	Ranges            []V1PurgeShare     `json:"ranges" description:"The sign-up ranges of the accounts named, with how many each holds: what to block."`
	Domains           []V1PurgeShare     `json:"domains" description:"The email domains of the accounts named, with how many each holds."`
	NeedsConfirmation bool               `json:"needsConfirmation" description:"The purge bans more than confirmAbove accounts: a session must have confirmed within 10 minutes."`
	ConfirmAbove      int                `json:"confirmAbove" description:"PURGE_CONFIRM_ABOVE."`
}

// V1PurgeCandidate is an account a purge names.
type V1PurgeCandidate struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Email    string `json:"email"`
	Status   string `json:"status" enum:"active,inactive,banned"`
	Outcome  string `json:"outcome" enum:"ban,skip,refused" description:"ban; skip (banned already); refused (see refused)."`
}

// V1PurgeBlockPlan is a block a purge asks for.
type V1PurgeBlockPlan struct {
	Kind   string  `json:"kind" enum:"ip,email_domain"`
	Value  string  `json:"value" description:"Normalised, as the block keeps it."`
	HeldBy *string `json:"heldBy" description:"The block that holds it already (nothing to create); null: the purge creates it."`
}

// V1PurgeRefusal is an account a purge refuses, and why.
type V1PurgeRefusal struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Reason   string `json:"reason" enum:"staff,rank,self" description:"staff: a moderator or above, never purged; rank: a role you do not outrank; self: your own account."`
}

// V1PurgeShare is a range or an email domain and how many of the
// accounts named it holds.
type V1PurgeShare struct {
	Value    string `json:"value"`
	Accounts int    `json:"accounts"`
}

// V1Purge is a purge: what it did and what its undo did.
type V1Purge struct {
	ID          string           `json:"id"`
	CreatedBy   *V1UserRef       `json:"createdBy" description:"Null once that account is deleted, or for the command line."`
	CreatedAt   string           `json:"createdAt" format:"date-time"`
	UndoUntil   string           `json:"undoUntil" format:"date-time" description:"Until when it can be undone (10 minutes after it)."`
	UndoneAt    *string          `json:"undoneAt" format:"date-time" description:"When its last account was undone; null while any stays purged."`
	CanUndo     bool             `json:"canUndo" description:"Its time to undo is not over and an account is left to undo."`
	Reason      string           `json:"reason"`
	Accounts    []V1PurgeAccount `json:"accounts"`
	HiddenPosts int              `json:"hiddenPosts"`
	Blocks      []V1PurgedBlock  `json:"blocks"`
}

// V1PurgeAccount is an account a purge banned.
type V1PurgeAccount struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	StatusBefore  string  `json:"statusBefore" description:"The account's status before the purge, as stored."`
	BanID         *string `json:"banId" description:"The ban the purge made; null once an undo removed it."`
	HiddenPosts   int     `json:"hiddenPosts"`
	UndoneAt      *string `json:"undoneAt" format:"date-time"`
	Restored      bool    `json:"restored" description:"The undo put the account back; false after an undo when someone had ended or replaced its ban since."`
	RestoredPosts int     `json:"restoredPosts" description:"Posts the undo gave their status back; the others had been decided on since."`
}

// V1PurgedBlock is a block a purge created.
type V1PurgedBlock struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind" enum:"ip,email_domain"`
	Value     string  `json:"value"`
	RemovedAt *string `json:"removedAt" format:"date-time" description:"When the purge's undo removed it; null while it stands (or once someone else deleted it)."`
}

// V1PurgeResult answers a purge: the purge, and the sessions it ended.
type V1PurgeResult struct {
	Purge         V1Purge `json:"purge"`
	Banned        int     `json:"banned"`
	AlreadyBanned int     `json:"alreadyBanned"`
	HiddenPosts   int     `json:"hiddenPosts"`
	EndedSessions int     `json:"endedSessions"`
	CreatedBlocks int     `json:"createdBlocks"`
}

// V1PurgeUndoResult answers an undo.
type V1PurgeUndoResult struct {
	Purge         V1Purge  `json:"purge"`
	Undone        []string `json:"undone" description:"The accounts this undo covered."`
	Restored      []string `json:"restored" description:"Those put back; the others' ban had been ended or replaced by someone since, so they were left alone."`
	RestoredPosts int      `json:"restoredPosts"`
	PostsLeft     int      `json:"postsLeft" description:"Posts left as someone decided on them since the purge."`
	RemovedBlocks int      `json:"removedBlocks" description:"The purge's blocks removed: once its last account is undone."`
}
