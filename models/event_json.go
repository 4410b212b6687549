package models

import (
	"encoding/json"
	"unicode/utf8"
)

// appendEventData appends v as JSON text for a jsonb column. It writes the
// values a decoded collect body holds (objects, arrays, strings,
// json.Number, booleans, null) without encoding/json's reflection and key
// sort: jsonb orders an object's keys itself, and this runs for every
// event at the collector's full rate. Anything else, and any string that
// is not valid UTF-8, is left to encoding/json.
func appendEventData(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if x {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case string:
		return appendJSONString(b, x)
	case json.Number:
		if !validNumber(string(x)) {
			return appendMarshalled(b, x)
		}
		return append(b, x...), nil
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendEventData(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		return appendObject(b, x)
	}
	return appendMarshalled(b, v)
}

func appendObject(b []byte, m map[string]any) ([]byte, error) {
	b = append(b, '{')
	first := true
	for k, e := range m {
		if !first {
			b = append(b, ',')
		}
		first = false
		var err error
		if b, err = appendJSONString(b, k); err != nil {
			return nil, err
		}
		b = append(b, ':')
		if b, err = appendEventData(b, e); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendMarshalled(b []byte, v any) ([]byte, error) {
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s, escaping what JSON requires (quotes,
// backslashes and control characters).
func appendJSONString(b []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return appendMarshalled(b, s) // replaces the invalid bytes, as the decoder would have
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"'), nil
}

// validNumber reports whether s is a JSON number: -?int frac? exp?.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		if j := digits(s, i+1); j > i+1 {
			i = j
		} else {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
