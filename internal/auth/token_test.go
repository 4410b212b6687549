package auth

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/plazahq/plaza/internal/access"
)

var secret = []byte(strings.Repeat("k", 32))

func TestTokenRoundTrip(t *testing.T) {
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	in := TokenClaims{UserID: 42, Permissions: []string{access.PermAdminRead}, IssuedAt: now, ExpiresAt: now.Add(time.Hour), ID: "abc"}
	raw, err := SignToken(secret, in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseToken(secret, raw, now.Add(time.Minute))
	if err != nil || got.UserID != 42 || got.ID != "abc" || len(got.Permissions) != 1 || !got.ExpiresAt.Equal(in.ExpiresAt) {
		t.Errorf("got %+v, %v", got, err)
	}
}

func TestTokenRejects(t *testing.T) {
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	good := TokenClaims{UserID: 1, Permissions: []string{access.PermAdminRead}, IssuedAt: now, ExpiresAt: now.Add(time.Hour), ID: "j"}
	sign := func(method jwt.SigningMethod, key any, claims jwt.Claims) string {
		s, err := jwt.NewWithClaims(method, claims).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	valid, _ := SignToken(secret, good)
	parts := strings.Split(valid, ".")
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
	tests := map[string]string{
		"alg none":             none,
		"wrong secret":         func() string { s, _ := SignToken([]byte(strings.Repeat("x", 32)), good); return s }(),
		"expired":              func() string { c := good; c.ExpiresAt = now.Add(-time.Second); s, _ := SignToken(secret, c); return s }(),
		"wrong issuer":         sign(jwt.SigningMethodHS256, secret, jwt.RegisteredClaims{Issuer: "other", Subject: "1", ID: "j", ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}),
		"no expiry":            sign(jwt.SigningMethodHS256, secret, jwt.RegisteredClaims{Issuer: Issuer, Subject: "1", ID: "j"}),
		"HS512":                sign(jwt.SigningMethodHS512, secret, jwt.RegisteredClaims{Issuer: Issuer, Subject: "1", ID: "j", ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}),
		"no jti":               sign(jwt.SigningMethodHS256, secret, jwt.RegisteredClaims{Issuer: Issuer, Subject: "1", ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}),
		"subject not a number": sign(jwt.SigningMethodHS256, secret, jwt.RegisteredClaims{Issuer: Issuer, Subject: "bob", ID: "j", ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}),
		"garbage":              "not.a.token",
	}
	for name, raw := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseToken(secret, raw, now); !errors.Is(err, ErrInvalidToken) {
				t.Errorf("got %v, want ErrInvalidToken", err)
			}
		})
	}
}

func TestPermissions(t *testing.T) {
	admin := access.RolePermissions([]string{access.RoleUser, access.RoleAdmin})
	super := access.RolePermissions([]string{access.RoleAdmin, access.RoleSuperAdmin})
	mod := access.RolePermissions([]string{access.RoleUser, access.RoleModerator})
	if !admin.Has(access.PermAdminDelete) || admin.Has(access.PermAdminSuper) {
		t.Errorf("admin permissions %v", admin)
	}
	if !super.Has(access.PermAdminSuper) || !(access.Permissions{access.PermAdminSuper}).Has(access.PermAdminDelete) {
		t.Errorf("admin:super must satisfy every admin permission")
	}
	if mod.Has(access.PermAdminRead) || !mod.Has(access.PermPostsModerate) {
		t.Errorf("moderator permissions %v", mod)
	}
	token := access.Permissions{access.PermAdminRead, access.PermAdminWrite, access.PermAdminSuper}
	if got := token.Intersect(admin); got.Has(access.PermAdminSuper) || !got.Has(access.PermAdminWrite) {
		t.Errorf("token ∩ admin = %v: a demoted super admin's token must lose admin:super", got)
	}
	if got := token.Intersect(access.RolePermissions([]string{access.RoleUser})); len(got) != 0 {
		t.Errorf("token ∩ user = %v, want nothing", got)
	}
	if access.HighestRole([]string{access.RoleUser, access.RoleSuperAdmin, access.RoleAdmin}) != access.RoleSuperAdmin || access.HighestRole(nil) != access.RoleUser {
		t.Error("HighestRole")
	}
	if _, err := access.ParsePermissions([]string{"admin:read", "root"}); err == nil {
		t.Error("unknown permission accepted")
	}
}
