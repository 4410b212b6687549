package audit

import "testing"

func TestOptionalDraft(t *testing.T) {
	if d := (&Draft{}); !d.Wanted() {
		t.Error("a plain draft is not wanted")
	}
	d := &Draft{Optional: true}
	if d.Wanted() {
		t.Error("an optional draft is wanted before Keep")
	}
	d.Keep()
	if !d.Wanted() {
		t.Error("an optional draft is not wanted after Keep")
	}
}
