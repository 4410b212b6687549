package handlers

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPagePath(t *testing.T) {
	const referer = "/from-referer"
	tests := []struct {
		name string
		data map[string]any
		want string
	}{
		{"path", map[string]any{"path": "/posts/7"}, "/posts/7"},
		{"path drops query and fragment", map[string]any{"path": "/search?q=me@example.com#top"}, "/search"},
		{"absolute url in path", map[string]any{"path": "https://plaza.example/a/b?token=x"}, "/a/b"},
		{"url", map[string]any{"url": "https://plaza.example/u/ada?ref=mail"}, "/u/ada"},
		{"path wins over url", map[string]any{"path": "/p", "url": "https://plaza.example/u"}, "/p"},
		{"path not a string", map[string]any{"path": 7, "url": "https://plaza.example/u"}, "/u"},
		{"unparsable url falls back", map[string]any{"url": "%zz"}, "%zz"},
		{"url without path falls back to referer", map[string]any{"url": "https://plaza.example"}, referer},
		{"nothing", map[string]any{}, referer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pagePath(tt.data, referer); got != tt.want {
				t.Errorf("pagePath(%v) = %q, want %q", tt.data, got, tt.want)
			}
		})
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 600) // 1,200 bytes
	if got := clip(long, 511); len(got) != 510 || !utf8.ValidString(got) {
		t.Errorf("clip to 511 bytes: %d bytes, valid %v; want 510 bytes cut between characters", len(got), utf8.ValidString(got))
	}
	if got := clip("a\xffb\x00c", 10); got != "a\uFFFDbc" {
		t.Errorf("clip of invalid UTF-8 and NUL = %q", got)
	}
}
