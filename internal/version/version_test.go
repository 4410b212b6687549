package version

import (
	"errors"
	"testing"
)

func TestPick(t *testing.T) {
	tests := []struct {
		name             string
		stamp, mod, file string
		want             string
	}{
		{"ldflags win", "2.0.1", "v1.0.0", "0.1.0", "2.0.1"},
		{"module version with v", "", "v1.4.2", "0.1.0", "1.4.2"},
		{"devel build falls to file", "", "(devel)", "0.3.0\n", "0.3.0"},
		{"pseudo-version falls to file", "", "v0.0.0-20261122031617-abcdef123456", "0.3.0", "0.3.0"},
		{"bad stamp is ignored", "latest", "", "1.0.0", "1.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pick(tt.stamp, tt.mod, tt.file)
			if err != nil || got != tt.want {
				t.Errorf("pick(%q, %q, %q) = %q, %v; want %q", tt.stamp, tt.mod, tt.file, got, err, tt.want)
			}
		})
	}
}

func TestPickNothing(t *testing.T) {
	if _, err := pick("", "(devel)", "not a version"); !errors.Is(err, ErrUnknown) {
		t.Errorf("got %v, want ErrUnknown", err)
	}
}
