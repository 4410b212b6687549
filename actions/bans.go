package actions

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The limits of a ban's input, the one place they are written: the API's
// documented maxLength and the console's maxlength follow them (a test
// holds the API's tags to them).
const (
	// MaxBanReason is the longest ban reason, in characters.
	MaxBanReason = 500
	// MaxBanNotes is the longest staff note of a ban, in characters.
	MaxBanNotes = 2000
)

// check is the one validation of a ban's input, whatever the door: a ban
// needs a reason (spaces trimmed) of at most MaxBanReason characters, and
// its notes at most MaxBanNotes. An unban takes neither.
func (in *BanInput) check() error {
	if in.Unban {
		return nil
	}
	in.Reason = strings.TrimSpace(in.Reason)
	if in.Reason == "" {
		return &InvalidError{Field: "reason", Code: "too_small", Reason: "a reason is required to ban"}
	}
	if err := checkBanReason(in.Reason); err != nil {
		return err
	}
	if utf8.RuneCountInString(in.Notes) > MaxBanNotes {
		return &InvalidError{Field: "notes", Code: "too_big", Reason: "notes must be at most " + strconv.Itoa(MaxBanNotes) + " characters"}
	}
	return nil
}

// checkBanReason holds a ban's reason to MaxBanReason characters.
func checkBanReason(reason string) error {
	if utf8.RuneCountInString(reason) > MaxBanReason {
		return &InvalidError{Field: "reason", Code: "too_big", Reason: "reason must be at most " + strconv.Itoa(MaxBanReason) + " characters"}
	}
	return nil
}
