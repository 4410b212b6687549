package auth

import "testing"

func TestSameSiteTarget(t *testing.T) {
	const site = "http://127.0.0.1:8080"
	tests := []struct{ target, want string }{
		{"/admin", "/admin"},
		{"/admin/users?page=2&q=a%20b#top", "/admin/users?page=2&q=a%20b#top"},
		{"http://127.0.0.1:8080/admin/posts", "/admin/posts"},
		{"http://127.0.0.1:8080/admin/posts?x=1", "/admin/posts?x=1"},
		{"admin/users", "/admin/users"},
		{"/a/%2F/b", "/a/%2F/b"},
		{"", ""},
		{"http://127.0.0.1:8080//evil.example/x", ""},
		{"http://127.0.0.1:8080///evil.example", ""},
		{"/\t/evil.example", ""},
		{"/%09/evil.example", ""},
		{"/\\evil.example", ""},
		{"\\\\evil.example", ""},
		{"//evil.example/steal", ""},
		{"///evil.example", ""},
		{"https://evil.example/steal", ""},
		{"https://127.0.0.1:8080/admin", ""},
		{"http://127.0.0.1:9090/admin", ""},
		{"http://127.0.0.1:8080@evil.example/", ""},
		{"http://user@127.0.0.1:8080/admin", ""},
		{"javascript:alert(1)", ""},
		{"/admin\n/x", ""},
		{" /admin", ""},
		{"/admin\u00a0x", ""},
		{"/..//evil.example", "/evil.example"}, // dot segments resolve on this site
		{"/a/../..//evil.example", "/evil.example"},
		{"%2F%2Fevil.example", ""}, // decodes to a path starting with //
		{"http://[::1", ""},
	}
	for _, tt := range tests {
		got, ok := SameSiteTarget(tt.target, site)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("SameSiteTarget(%q) = %q, %v; want %q", tt.target, got, ok, tt.want)
		}
	}
}

func FuzzSameSiteTarget(f *testing.F) {
	for _, s := range []string{"/admin", "http://127.0.0.1:8080//evil", "/\t/x", "/\\x", "//x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		got, ok := SameSiteTarget(target, "http://127.0.0.1:8080")
		if !ok {
			return
		}
		if len(got) < 1 || got[0] != '/' || len(got) > 1 && (got[1] == '/' || got[1] == '\\') {
			t.Fatalf("%q gave %q", target, got)
		}
		for _, r := range got {
			if unsafeInURL(r) {
				t.Fatalf("%q gave %q", target, got)
			}
		}
	})
}
