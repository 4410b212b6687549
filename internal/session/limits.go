package session

import "time"

// Limits bound a signed-in session: it ends Lifetime after sign-in, or
// Idle after its last write-back, whichever comes first. Staff sessions
// have shorter ones than members'.
type Limits struct {
	Lifetime time.Duration
	Idle     time.Duration
}

// Over reports whether a session that began at started and was last
// written back at seen has ended by now.
func (l Limits) Over(started, seen, now time.Time) bool {
	return now.After(started.Add(l.Lifetime)) || now.After(seen.Add(l.Idle))
}
