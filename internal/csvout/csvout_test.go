package csvout

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// TestRowsReadBackAsWritten: cells with commas, quotes, newlines and
// non-ASCII text survive a round trip through a standard reader; cells
// that start like formulas come back with an apostrophe; lines end CRLF.
func TestRowsReadBackAsWritten(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf)
	rows := [][]string{
		{"id", "title"},
		{"1", `Comma, "quote" and` + "\nnewline"},
		{"2", "Zoë’s café ☕"},
		{"3", "=HYPERLINK(\"http://x\")"},
		{"4", "+1"}, {"5", "-2"}, {"6", "@SUM(A1)"}, {"7", "\tcmd"}, {"8", "a=b"},
	}
	for _, r := range rows {
		if err := w.Row(append([]string(nil), r...)...); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(buf.Bytes(), []byte("a=b\r\n")) || !bytes.HasPrefix(buf.Bytes(), []byte("id,title\r\n")) {
		t.Errorf("line ends: %q", buf.String())
	}
	got, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{3: `'=HYPERLINK("http://x")`, 4: "'+1", 5: "'-2", 6: "'@SUM(A1)", 7: "'\tcmd"}
	for i, r := range rows {
		cell := r[1]
		if w, ok := want[i]; ok {
			cell = w
		}
		if got[i][1] != cell {
			t.Errorf("row %d: %q, want %q", i, got[i][1], cell)
		}
	}
}
