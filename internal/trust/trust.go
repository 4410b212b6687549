// Package trust weighs a reporter's word when reports take a post
// offline on their own. Accounts cost nothing to make, so a count of
// reporters lets anyone with a handful of fresh accounts hide any post;
// a reporter's weight grows instead with the account's age and with how
// often moderators upheld the reporter's past reports.
package trust

import "time"

// The automatic flag: when the weights of the users holding open reports
// on a published post add up to AutoFlagWeight, the post is flagged
// (taken offline until a moderator decides). Below it, a reported post
// stays published and waits in the moderation queue like any other.
const AutoFlagWeight = 5.0

// Account age: an account younger than NewAccount weighs nothing, so that
// fresh accounts alone never hide a post; one younger than Seasoned
// weighs YoungFactor of a seasoned one.
const (
	NewAccount  = 7 * 24 * time.Hour
	Seasoned    = 30 * 24 * time.Hour
	YoungFactor = 0.5
)

// Past accuracy: the share of the reporter's settled reports that
// moderators upheld (hide, delete) rather than rejected (approve,
// dismiss), counting AccuracyPrior upheld and AccuracyPrior rejected
// reports besides, so that a reporter without a record sits at one half.
// The share is doubled: a reporter with no record weighs 1, one whose
// reports were all upheld approaches 2, one whose reports were all
// rejected approaches 0.
const AccuracyPrior = 1

// Reporter is what a reporter's weight depends on.
type Reporter struct {
	Age      time.Duration // since the account was made
	Upheld   int           // settled reports moderators upheld
	Rejected int           // settled reports moderators rejected
}

// Weight is r's weight toward AutoFlagWeight.
func Weight(r Reporter) float64 {
	age := 1.0
	switch {
	case r.Age < NewAccount:
		return 0
	case r.Age < Seasoned:
		age = YoungFactor
	}
	upheld, rejected := max(r.Upheld, 0), max(r.Rejected, 0)
	accuracy := float64(upheld+AccuracyPrior) / float64(upheld+rejected+2*AccuracyPrior)
	return age * 2 * accuracy
}

// Sum is the reporters' weights together.
func Sum(rs []Reporter) float64 {
	var sum float64
	for _, r := range rs {
		sum += Weight(r)
	}
	return sum
}

// Flags reports whether reports weighing sum take a post offline. A
// hair's tolerance keeps a sum that is the threshold on paper (three
// reporters at 5/3) from falling short by a rounding error.
func Flags(sum float64) bool {
	return sum >= AutoFlagWeight-1e-9
}
