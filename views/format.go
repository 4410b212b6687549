package views

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plazahq/plaza/api"
)

// count writes n with thousands separators: 1,234,567.
func count[T ~int | ~int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// avatarURL is the 56-pixel avatar Plaza draws for seed, as the console
// links it: from its own route, which the browser may cache.
func avatarURL(seed string) string {
	return api.PathConsoleAvatar + "?size=56&seed=" + url.QueryEscape(seed)
}

// avatarSheetURL is the console's sheet of the users' avatars, in their
// order: the same users give the same URL, which the browser keeps.
func avatarSheetURL(users []api.V1User) string {
	seeds := make([]string, len(users))
	for i, u := range users {
		seeds[i] = u.ID
	}
	return api.PathConsoleAvatars + "?seeds=" + url.QueryEscape(strings.Join(seeds, ","))
}

// roleLabel is how a role reads in the console.
func roleLabel(role string) string {
	switch role {
	case api.RoleSuperAdmin:
		return "Super admin"
	case "":
		return "User"
	}
	return strings.ToUpper(role[:1]) + strings.ReplaceAll(role[1:], "_", " ")
}

// exactTime is a time as the console shows it on hover: UTC, to the
// second.
func exactTime(t time.Time) string {
	return t.UTC().Format("2 Jan 2006 15:04:05 UTC")
}

// parseTime reads an API timestamp; the zero time when it is not one.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// relative says how long ago (or how far ahead) t is from now, as people
// say it: "just now", "3 minutes ago", "in 2 days", then the date past a
// month.
func relative(ctx context.Context, t time.Time) string {
	d := nowFrom(ctx).Sub(t)
	ahead := d < 0
	if ahead {
		d = -d
	}
	var s string
	switch {
	case d < 45*time.Second:
		return "just now"
	case d < 90*time.Minute:
		s = plural(int(d.Round(time.Minute)/time.Minute), "minute")
	case d < 36*time.Hour:
		s = plural(int(d.Round(time.Hour)/time.Hour), "hour")
	case d < 30*24*time.Hour:
		s = plural(int((d+12*time.Hour)/(24*time.Hour)), "day")
	default:
		return t.UTC().Format("2 Jan 2006")
	}
	if ahead {
		return "in " + s
	}
	return s + " ago"
}

// plural is "1 minute" or "n minutes".
func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%s %ss", count(n), unit)
}

// ConsoleUserPath is a user's page in the console.
func ConsoleUserPath(id string) string { return api.PathConsoleUsers + "/" + id }

// emptyUsers says that a search found nobody.
func emptyUsers(search string) string {
	if search == "" {
		return "No users match these filters."
	}
	return "No users match '" + search + "'."
}

// dash is s, or an em dash for nothing.
func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// orDash is dash of an optional value.
func orDash(s *string) string {
	if s == nil {
		return "—"
	}
	return dash(*s)
}

// orEmpty is an optional value, or nothing.
func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// roleList names roles as the console writes them.
func roleList(roles []string) string {
	out := make([]string, len(roles))
	for i, r := range roles {
		out[i] = roleLabel(r)
	}
	return dash(strings.Join(out, ", "))
}

// noteKind is the badge state of a staff note.
func noteKind(kind string) string {
	if kind == "warning" {
		return "warning"
	}
	return "note"
}

// periodLabel names a dashboard period.
func periodLabel(p string) string {
	switch p {
	case "day":
		return "last 24 hours"
	case "month":
		return "last 30 days"
	case "year":
		return "last 12 months"
	}
	return "last 7 days"
}

// resultText is a job's result as one line: "key: value" pairs in order.
func resultText(r map[string]any) string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + jsonText(r[k])
	}
	return strings.Join(parts, ", ")
}

// bytesText is a size as people read it: 1.4 MB.
func bytesText(n int64) string {
	const unit = 1000
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	f, i := float64(n), 0
	for f >= unit && i < 4 {
		f /= unit
		i++
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + []string{"B", "kB", "MB", "GB", "TB"}[i]
}

// percent is n as a percentage: "25%".
func percent(n int) string { return strconv.Itoa(n) + "%" }

// itoa is n in decimal.
func itoa(n int) string { return strconv.Itoa(n) }

// flagDialogID is the id of one of a flag's dialogs: kind-name.
func flagDialogID(kind, name string) string { return kind + "-" + name }

// tokenLabel names a token: its name, or its id when it has none.
func tokenLabel(t api.Token) string {
	if strings.TrimSpace(t.Name) != "" {
		return t.Name
	}
	return "token " + t.ID
}

// recoveryDownload is the recovery codes as a text file's data: URL, so the
// download needs no request and no script.
func recoveryDownload(codes []string) string {
	return "data:text/plain;charset=utf-8," + url.PathEscape(strings.Join(codes, "\r\n")+"\r\n")
}

// replicaLag says how far behind the read replica is, in words.
func replicaLag(r api.ReplicaHealth) string {
	switch {
	case r.Database != api.DatabaseConnected:
		return "Not answering: the lists and reports that read it fail until it is back"
	case r.LagSeconds == nil:
		return "Lag unknown (not replaying, or nothing replayed yet)"
	}
	return fmt.Sprintf("%.1f s behind", *r.LagSeconds)
}

// boolText is "true" or "false", as ARIA states and JSON write them.
func boolText(b bool) string { return strconv.FormatBool(b) }

// untilText says when something ends, as a calendar does for a time
// ahead ("until tomorrow 14:00 UTC") and as a past event for one gone
// ("expired 2 days ago"), never "until in 24 hours".
func untilText(ctx context.Context, t time.Time) string {
	now := nowFrom(ctx)
	if !t.After(now) {
		return "expired " + relative(ctx, t)
	}
	return "until " + calendarTime(now, t)
}

// calendarTime names a time ahead by its day: "today 17:00 UTC",
// "tomorrow 14:00 UTC", "Saturday 12 Dec 14:00 UTC" within the week, then
// the date.
func calendarTime(now, t time.Time) string {
	now, t = now.UTC(), t.UTC()
	clock := t.Format("15:04") + " UTC"
	switch days := dayNumber(t) - dayNumber(now); {
	case days == 0:
		return "today " + clock
	case days == 1:
		return "tomorrow " + clock
	case days < 7:
		return t.Format("Monday 2 Jan ") + clock
	case t.Year() == now.Year():
		return t.Format("2 Jan ") + clock
	}
	return t.Format("2 Jan 2006 ") + clock
}

// dayNumber counts UTC days since 1970, so that two times' difference in
// calendar days is a subtraction.
func dayNumber(t time.Time) int { return int(t.UTC().Unix() / 86400) }

// dayWindow names the days a report covers, in UTC: the first, the last
// ("today" or "yesterday" when it is one of those) and how many. A window
// ending at midnight ends the day before.
func dayWindow(ctx context.Context, start, end time.Time) (from, to string, days int) {
	start, end = start.UTC(), end.UTC()
	last := end
	if end.After(start) && end.Equal(end.Truncate(24*time.Hour)) {
		last = end.Add(-time.Nanosecond)
	}
	days = dayNumber(last) - dayNumber(start) + 1
	now := nowFrom(ctx).UTC()
	to = last.Format("2 Jan 2006")
	switch dayNumber(now) - dayNumber(last) {
	case 0:
		to = "today, " + last.Format("2 Jan")
	case 1:
		to = "yesterday, " + last.Format("2 Jan")
	}
	from = start.Format("2 Jan")
	if start.Year() != last.Year() {
		from = start.Format("2 Jan 2006")
	}
	return from, to, days
}
