package actions

import (
	"context"
	"crypto/rand"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/wiretime"
	"github.com/plazahq/plaza/models"
)

// The limits of an invitation, checked here for every door.
const (
	MinInvitationUses         = 1
	MaxInvitationUses         = 1000
	MinInvitationValidFor     = time.Hour
	MaxInvitationValidFor     = 90 * 24 * time.Hour
	DefaultInvitationValidFor = 7 * 24 * time.Hour
	MaxInvitationNote         = 200
)

// InvitationInput is a new invitation. A nil MaxUses is one use; an empty
// ValidFor is DefaultInvitationValidFor.
type InvitationInput struct {
	MaxUses *int
	// ValidFor is how long the link works, as the wire writes durations
	// ("24h", "7d", "2w").
	ValidFor string
	Note     string
	// Email, when given, is the one address that may sign up with the
	// invitation (it is still verified by its own link).
	Email string
}

// check is the one validation of an invitation's input: it trims, fills
// the defaults and answers how long the link works.
func (in *InvitationInput) check() (time.Duration, error) {
	in.Note, in.Email, in.ValidFor = strings.TrimSpace(in.Note), strings.TrimSpace(in.Email), strings.TrimSpace(in.ValidFor)
	var found []*InvalidError
	if in.MaxUses == nil {
		one := MinInvitationUses
		in.MaxUses = &one
	}
	if n := *in.MaxUses; n < MinInvitationUses || n > MaxInvitationUses {
		found = append(found, &InvalidError{Field: "maxUses", Code: "too_big", Reason: "maxUses must be from " +
			strconv.Itoa(MinInvitationUses) + " to " + strconv.Itoa(MaxInvitationUses)})
	}
	validFor, ie := invitationValidFor(in.ValidFor)
	found = append(found, ie, checkText("note", in.Note, 0, MaxInvitationNote, true))
	if in.Email != "" {
		found = append(found, checkEmail(in.Email))
		in.Email = models.NormalizeEmail(in.Email)
	}
	return validFor, refusal(found...)
}

// invitationValidFor reads how long an invitation works, within its
// limits; "" is the default.
func invitationValidFor(text string) (time.Duration, *InvalidError) {
	if text == "" {
		return DefaultInvitationValidFor, nil
	}
	d, err := api.ParseDuration(text)
	if err != nil || d < MinInvitationValidFor || d > MaxInvitationValidFor {
		return 0, &InvalidError{Field: "validFor", Code: "invalid_string",
			Reason: "validFor must be from 1h to 90d, written <n>h, <n>d or <n>w (e.g. 7d)"}
	}
	return d, nil
}

// NewInvitation is an invitation just made, with its token and the link
// that carries it: shown this once, as only the token's hash is kept.
type NewInvitation struct {
	Invitation *models.Invitation
	Token      string
	URL        string
}

// CreateInvitation makes an invitation for up to in.MaxUses sign-ups
// until in.ValidFor from now, audited as invitation.create (without its
// token).
func (a *Actions) CreateInvitation(ctx context.Context, who *access.Principal, in InvitationInput) (*NewInvitation, error) {
	if err := a.Policy.Check(who, policy.CreateInvitation, policy.Platform); err != nil {
		return nil, err
	}
	validFor, err := in.check()
	if err != nil {
		return nil, err
	}
	if a.Mail == nil {
		return nil, errNoComposer
	}
	token := rand.Text() // 130 random bits, as a reset link's
	inv := &models.Invitation{TokenHash: linkTokenHash(token), Note: in.Note, MaxUses: *in.MaxUses, ExpiresAt: a.Now().Add(validFor)}
	if in.Email != "" {
		inv.Email = &in.Email
	}
	if id := callerID(who); id != 0 {
		inv.CreatedBy = &id
	}
	err = a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Store.Invitations.CreateInvitation(ctx, inv); err != nil {
			return err
		}
		audit.Target(ctx, "invitation", itoa(inv.ID), map[string]any{"maxUses": inv.MaxUses, "validFor": in.ValidFor,
			"expiresAt": wiretime.Format(inv.ExpiresAt), "note": inv.Note, "email": inv.Email})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &NewInvitation{Invitation: inv, Token: token, URL: a.Mail.InvitationLink(token)}, nil
}

// Invitations lists invitations newest first, of one state
// (models.InvitationStates) unless state is empty, with the total.
func (a *Actions) Invitations(ctx context.Context, who *access.Principal, state string, limit, offset int) ([]models.Invitation, int, error) {
	if err := a.Policy.Check(who, policy.SeeInvitations, policy.Platform); err != nil {
		return nil, 0, err
	}
	return a.Store.Invitations.Invitations(ctx, state, limit, offset)
}

// InvitationDetail is one invitation with the accounts it opened, latest
// first.
type InvitationDetail struct {
	Invitation *models.Invitation
	Uses       []models.InvitationUser
}

// Invitation is invitation id with who used it; an unknown id is
// models.ErrNotFound.
func (a *Actions) Invitation(ctx context.Context, who *access.Principal, id int64) (*InvitationDetail, error) {
	if err := a.Policy.Check(who, policy.ViewInvitation, policy.Platform); err != nil {
		return nil, err
	}
	inv, err := a.Store.Invitations.InvitationByID(ctx, id)
	if err != nil {
		return nil, err
	}
	uses, err := a.Store.Invitations.InvitationUsers(ctx, id)
	if err != nil {
		return nil, err
	}
	return &InvitationDetail{Invitation: inv, Uses: uses}, nil
}

// MayRevokeInvitation reports whether who may revoke inv, so that a page
// offers Revoke only where it would work.
func (a *Actions) MayRevokeInvitation(who *access.Principal, inv *models.Invitation) bool {
	return a.checkRevoke(who, inv) == nil
}

// checkRevoke asks the policy whether who may revoke inv: staff their
// own, an admin anyone's.
func (a *Actions) checkRevoke(who *access.Principal, inv *models.Invitation) error {
	if err := a.Policy.Check(who, policy.RevokeInvitation, policy.Platform); err != nil {
		return err
	}
	if inv.CreatedBy != nil && *inv.CreatedBy == callerID(who) {
		return nil
	}
	var maker int64
	if inv.CreatedBy != nil {
		maker = *inv.CreatedBy
	}
	return a.Policy.Check(who, policy.RevokeOthersInvitation, policy.Owned(maker))
}

// RevokeInvitation revokes invitation id, so that its link opens no more
// accounts (those it opened stay), audited as invitation.revoke. An
// unknown id is models.ErrNotFound, one revoked already models.ErrConflict.
func (a *Actions) RevokeInvitation(ctx context.Context, who *access.Principal, id int64) (*models.Invitation, error) {
	var out *models.Invitation
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.RevokeInvitation, policy.Platform); err != nil {
			return err
		}
		inv, err := a.Store.Invitations.InvitationByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.checkRevoke(who, inv); err != nil {
			return err
		}
		var by *int64
		if id := callerID(who); id != 0 {
			by = &id
		}
		if out, err = a.Store.Invitations.RevokeInvitation(ctx, id, by); err != nil {
			return err
		}
		audit.Target(ctx, "invitation", itoa(id), map[string]any{"uses": out.Uses, "maxUses": out.MaxUses, "createdBy": out.CreatedBy})
		return nil
	})
	return out, err
}

// checkInvitation is the invitation whose token a registration carries,
// if it may open an account for email now: known, not revoked, not
// expired, with a use left, and for email when it names one address.
// Anything else is an InvalidError on invitation saying which. The use is
// spent later, in the change that opens the account
// (models.Invitations.UseInvitation), which a racing registration may
// still win.
func (a *Actions) checkInvitation(ctx context.Context, token, email string) (*models.Invitation, error) {
	refuse := func(reason string) error { return &InvalidError{Field: "invitation", Reason: reason} }
	inv, err := a.Store.Invitations.InvitationByToken(ctx, linkTokenHash(token))
	if errors.Is(err, models.ErrNotFound) {
		return nil, refuse("This invitation is not valid: check that the link was copied whole.")
	}
	if err != nil {
		return nil, err
	}
	switch inv.State(a.Now()) {
	case models.InvitationRevoked:
		return nil, refuse("This invitation was withdrawn; ask whoever invited you for a new one.")
	case models.InvitationUsedUp:
		return nil, refuse(errInvitationUsedUp)
	case models.InvitationExpired:
		return nil, refuse("This invitation expired on " + inv.ExpiresAt.UTC().Format("2 January 2006 at 15:04 UTC") + "; ask for a new one.")
	}
	if inv.Email != nil && *inv.Email != models.NormalizeEmail(email) {
		return nil, refuse("This invitation is for another email address: sign up with the address it was sent to.")
	}
	return inv, nil
}

const errInvitationUsedUp = "This invitation has been used as many times as it allows; ask for a new one."

// invitationValid answers the registration-mode check (invite-only
// registration): whether reg carries an invitation that may open its
// account now, as checkInvitation decides. False, with no error, for
// none or one that may not; an error only when the database does not
// answer. Register still spends the use in the change that opens the
// account, where a racing registration may have taken the last one.
func (a *Actions) invitationValid(ctx context.Context, reg models.NewRegistration) (bool, error) {
	if strings.TrimSpace(reg.Invitation) == "" {
		return false, nil
	}
	_, err := a.checkInvitation(ctx, reg.Invitation, reg.Email)
	var ie *InvalidError
	if errors.As(err, &ie) {
		return false, nil
	}
	return err == nil, err
}

// useInvitation spends one use of inv for account userID, in the change
// that opens it: a registration that lost the last use to a racing one is
// refused on invitation, and the account is not opened.
func (a *Actions) useInvitation(ctx context.Context, inv *models.Invitation, userID int64) error {
	err := a.Store.Invitations.UseInvitation(ctx, inv.ID, userID)
	if errors.Is(err, models.ErrInvitationSpent) {
		return &InvalidError{Field: "invitation", Reason: errInvitationUsedUp}
	}
	return err
}
