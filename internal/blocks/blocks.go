// Package blocks decides whether an address or an email's domain is
// blocked: it parses and normalises block values and matches against a
// list of them. It knows nothing of HTTP or SQL.
package blocks

import (
	"errors"
	"net/netip"
	"strings"
	"time"
)

// The kinds of block.
const (
	KindIP          = "ip"
	KindEmailDomain = "email_domain"
)

// Kinds lists every kind, in the order forms show them.
var Kinds = []string{KindIP, KindEmailDomain}

// Errors of Normalize, worded for the person who typed the value.
var (
	ErrKind   = errors.New("kind must be ip or email_domain")
	ErrIP     = errors.New("not an IP address or CIDR range (203.0.113.7, 203.0.113.0/24, 2001:db8::/32)")
	ErrDomain = errors.New("not a domain name (example.com)")
)

// Block is one entry of the list: its kind, its normalised value, what it
// refuses (empty: the kind's default) and when it stops applying (zero:
// never).
type Block struct {
	Kind      string
	Value     string
	Severity  string
	ExpiresAt time.Time
}

// What a block refuses, from the mildest: an account opened from the range
// or with the domain waits for staff's approval; no account is opened; the
// range may not use the platform at all (address ranges only: the
// accounts of a domain are stopped by banning them).
const (
	SeverityApproval = "approval"
	SeveritySignUp   = "signup"
	SeverityAll      = "all"
)

// Severities lists every severity, in the order forms show them.
var Severities = []string{SeverityAll, SeveritySignUp, SeverityApproval}

// DefaultSeverity is what a block of kind refuses when it names nothing:
// an address range everything, an email domain sign-up, as every block
// did before severities.
func DefaultSeverity(kind string) string {
	if kind == KindEmailDomain {
		return SeveritySignUp
	}
	return SeverityAll
}

// ErrSeverity refuses a severity that is not one of Severities.
var ErrSeverity = errors.New("severity must be all, signup or approval")

// rank orders severities so that the strongest of several blocks wins;
// 0 is no block.
func rank(severity string) int {
	switch severity {
	case SeverityApproval:
		return 1
	case SeveritySignUp:
		return 2
	case SeverityAll:
		return 3
	}
	return 0
}

// severityOf is the severity of rank r ("" for none).
func severityOf(r int) string {
	if r <= 0 || r > len(Severities) {
		return ""
	}
	return Severities[len(Severities)-r]
}

// Normalize returns value in the one spelling the list keeps: a masked
// CIDR prefix for ip (a single address becomes /32 or /128, an IPv4-mapped
// IPv6 range its IPv4 range), a lower-case domain without a trailing dot
// for email_domain.
func Normalize(kind, value string) (string, error) {
	switch kind {
	case KindIP:
		p, err := ParsePrefix(value)
		if err != nil {
			return "", err
		}
		return p.String(), nil
	case KindEmailDomain:
		return ParseDomain(value)
	}
	return "", ErrKind
}

// ParsePrefix reads an address or a CIDR range as a masked prefix.
func ParsePrefix(value string) (netip.Prefix, error) {
	value = strings.TrimSpace(value)
	var p netip.Prefix
	if strings.Contains(value, "/") {
		var err error
		if p, err = netip.ParsePrefix(value); err != nil {
			return netip.Prefix{}, ErrIP
		}
	} else {
		a, err := netip.ParseAddr(value)
		if err != nil || a.Zone() != "" {
			return netip.Prefix{}, ErrIP
		}
		p = netip.PrefixFrom(a, a.BitLen())
	}
	if p.Addr().Zone() != "" {
		return netip.Prefix{}, ErrIP
	}
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p.Masked(), nil
}

// maxDomain is the longest domain name DNS allows.
const maxDomain = 253

// ParseDomain reads a domain name: two or more dot-separated labels of
// letters, digits and hyphens (no hyphen at either end), lower-cased. An
// "@" before it is dropped, so "@example.com" is accepted.
func ParseDomain(value string) (string, error) {
	d := strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(value)), "@"), ".")
	if len(d) == 0 || len(d) > maxDomain {
		return "", ErrDomain
	}
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return "", ErrDomain
	}
	for _, l := range labels {
		if !validLabel(l) {
			return "", ErrDomain
		}
	}
	return d, nil
}

func validLabel(l string) bool {
	if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for _, r := range l {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}
