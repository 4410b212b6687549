package auth

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Issuer is the iss claim of every admin token.
const Issuer = "plaza"

// ErrInvalidToken covers every token that must be refused with 401: bad
// signature or algorithm, wrong issuer, expired, malformed.
var ErrInvalidToken = errors.New("invalid token")

// TokenClaims are an admin JWT's claims.
type TokenClaims struct {
	UserID      int64
	Permissions []string
	IssuedAt    time.Time
	ExpiresAt   time.Time
	ID          string // jti
}

type wireClaims struct {
	Perms []string `json:"perms"`
	jwt.RegisteredClaims
}

// SignToken signs claims with HS256.
func SignToken(secret []byte, c TokenClaims) (string, error) {
	wc := wireClaims{
		Perms: c.Permissions,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    Issuer,
			Subject:   strconv.FormatInt(c.UserID, 10),
			IssuedAt:  jwt.NewNumericDate(c.IssuedAt),
			ExpiresAt: jwt.NewNumericDate(c.ExpiresAt),
			ID:        c.ID,
		},
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, wc).SignedString(secret)
}

// NewToken mints an admin token for userID granting perms from now for
// ttl, under a fresh jti. The caller records the claims (the JWT itself is
// shown once and never stored). Times are kept to the microsecond, as the
// databases keep them.
func NewToken(secret []byte, userID int64, perms []string, now time.Time, ttl time.Duration) (string, TokenClaims, error) {
	now = now.UTC().Truncate(time.Microsecond)
	c := TokenClaims{UserID: userID, Permissions: perms, IssuedAt: now, ExpiresAt: now.Add(ttl), ID: rand.Text()}
	tok, err := SignToken(secret, c)
	return tok, c, err
}

// ParseToken verifies a token: HS256 only (so alg:none and key-confusion
// tokens fail), issuer plaza, an expiry that has not passed, a numeric
// subject and a jti. now is the clock to check expiry against.
func ParseToken(secret []byte, raw string, now time.Time) (TokenClaims, error) {
	var wc wireClaims
	_, err := jwt.ParseWithClaims(raw, &wc, func(*jwt.Token) (any, error) { return secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(Issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }),
	)
	if err != nil {
		return TokenClaims{}, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	uid, err := strconv.ParseInt(wc.Subject, 10, 64)
	if err != nil || wc.ID == "" {
		return TokenClaims{}, fmt.Errorf("%w: missing subject or jti", ErrInvalidToken)
	}
	return TokenClaims{UserID: uid, Permissions: wc.Perms, IssuedAt: wc.IssuedAt.Time,
		ExpiresAt: wc.ExpiresAt.Time, ID: wc.ID}, nil
}
