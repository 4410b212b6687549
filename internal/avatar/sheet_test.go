package avatar

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestSheetDrawsWhatRenderDraws: each symbol of a sheet holds the very
// shapes and colours of that seed's own SVG.
func TestSheetDrawsWhatRenderDraws(t *testing.T) {
	seeds := []string{"1", "ada", "42"}
	sheet := AppendSheet(nil, seeds)
	for i, seed := range seeds {
		own := Render(seed, 32)
		body := own[bytes.Index(own, []byte(`<rect`)) : len(own)-len(`</svg>`)]
		want := fmt.Sprintf(`<symbol id="a%d" viewBox="0 0 100 100">%s</symbol>`, i, body)
		if !strings.Contains(string(sheet), want) {
			t.Errorf("the sheet's a%d is not %s's avatar", i, seed)
		}
	}
}
