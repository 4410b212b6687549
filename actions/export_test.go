package actions

// InvitationValid lets the tests ask what the registration-mode check
// asks.
var InvitationValid = (*Actions).invitationValid
