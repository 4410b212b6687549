// Package csvout writes the CSV files admins download: RFC 4180 (quoted
// where needed, CRLF line ends), UTF-8, and safe to open in a spreadsheet,
// which would run a cell that starts like a formula.
package csvout

import (
	"encoding/csv"
	"io"
	"strings"
)

// Writer writes rows to an underlying writer, buffering a few.
type Writer struct {
	csv *csv.Writer
}

// New writes CSV to w.
func New(w io.Writer) *Writer {
	c := csv.NewWriter(w)
	c.UseCRLF = true
	return &Writer{csv: c}
}

// Row writes one row, each cell neutralised (Neutralise).
func (w *Writer) Row(cells ...string) error {
	for i, c := range cells {
		cells[i] = Neutralise(c)
	}
	return w.csv.Write(cells)
}

// Flush writes what is buffered and reports the first error of any write.
func (w *Writer) Flush() error {
	w.csv.Flush()
	return w.csv.Error()
}

// Neutralise makes a cell that a spreadsheet would read as a formula (it
// starts with =, +, -, @, a tab or a carriage return) plain text, by
// putting an apostrophe before it, as OWASP advises for CSV injection.
func Neutralise(cell string) string {
	if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return "'" + cell
	}
	return cell
}
