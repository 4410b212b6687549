package models

// The store's queries are split by domain: each part below holds one
// domain's reads and writes, so a caller names the part it uses
// (store.Sanctions.BanUser, store.Posts.EditPost) and a reader of an action
// sees at once which tables it touches. Each part embeds the Store for its
// connections, clock and caches; the parts share one Store and one unit of
// work (work.go), so an action spanning several parts still commits once.

// Users holds accounts: creation, registration, profiles, the admin's
// lists and changes, references by id or name, and the users indexes.
type Users struct{ *Store }

// Sanctions holds what staff decide about a person: bans, silences, notes
// and strikes.
type Sanctions struct{ *Store }

// Blocklist holds the address and email-domain blocks checked at the gate.
type Blocklist struct{ *Store }

// Auth holds what proves who someone is: sessions, API tokens, two-factor
// sign-in, provider links and password changes.
type Auth struct{ *Store }

// Posts holds posts as their authors and the general API see them, and the
// admin's post lists.
type Posts struct{ *Store }

// Desk holds the moderation desk: decisions and their undo, claims,
// locks, a post's context and its decision history.
type Desk struct{ *Store }

// Analytics holds events, their roll-ups and the reports and dashboard
// counts read from them.
type Analytics struct{ *Store }

// Audit holds the audit log: appending, listing, verifying, sealing and
// archiving its chain.
type Audit struct{ *Store }

// Hooks holds webhooks, their outbox of events and their deliveries.
type Hooks struct{ *Store }

// Mail holds the outbox of outgoing mail: messages queued with the change
// that causes them, and what became of each.
type Mail struct{ *Store }

// Alerts holds the mail staff ask for of new reports and failed jobs,
// and whose digest is due.
type Alerts struct{ *Store }

// Invitations holds the sign-up links staff hand out and who used each.
type Invitations struct{ *Store }

// Notices holds what members are told: the inbox, notices and broadcasts.
type Notices struct{ *Store }

// Settings holds feature flags and the stored settings.
type Settings struct{ *Store }

// Maintenance holds maintenance jobs, backups, the job counts and the
// database's upkeep (planner statistics, the replica's state).
type Maintenance struct{ *Store }

// Search holds the full-text search of posts and users.
type Search struct{ *Store }

// parts points every domain part at s.
func (s *Store) parts() {
	s.Users, s.Sanctions, s.Blocklist, s.Auth = Users{s}, Sanctions{s}, Blocklist{s}, Auth{s}
	s.Posts, s.Desk, s.Analytics, s.Audit = Posts{s}, Desk{s}, Analytics{s}, Audit{s}
	s.Hooks, s.Notices, s.Settings, s.Maintenance, s.Search = Hooks{s}, Notices{s}, Settings{s}, Maintenance{s}, Search{s}
	s.Mail, s.Alerts, s.Invitations = Mail{s}, Alerts{s}, Invitations{s}
}

// Upkeep is the hourly sweep's reach across the parts: each part's expired
// rows, and the housekeeping of the indexes.
type Upkeep struct {
	Auth
	Desk
	Sanctions
	Blocklist
	Maintenance
	Users
	Posts
}

// Upkeep is the parts the hourly sweep clears.
func (s *Store) Upkeep() Upkeep {
	return Upkeep{s.Auth, s.Desk, s.Sanctions, s.Blocklist, s.Maintenance, s.Users, s.Posts}
}
