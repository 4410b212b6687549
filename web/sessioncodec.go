package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/alexedwards/scs/v2"

	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/models"
)

// sessionCodec stores session data as JSON that keeps each value's type.
// Plaza keeps only int64 and string values in sessions. scs's default, gob,
// builds a decoder and re-reads its type description on every session read:
// about 5% of the CPU of a busy cookie-authenticated endpoint.
type sessionCodec struct{}

type sessionWire struct {
	Deadline time.Time         `json:"d"`
	Ints     map[string]int64  `json:"i,omitempty"`
	Strings  map[string]string `json:"s,omitempty"`
}

// Encode implements scs.Codec.
func (sessionCodec) Encode(deadline time.Time, values map[string]any) ([]byte, error) {
	w := sessionWire{Deadline: deadline}
	for k, v := range values {
		switch v := v.(type) {
		case int64:
			if w.Ints == nil {
				w.Ints = map[string]int64{}
			}
			w.Ints[k] = v
		case string:
			if w.Strings == nil {
				w.Strings = map[string]string{}
			}
			w.Strings[k] = v
		default:
			return nil, fmt.Errorf("session value %q: %T cannot be stored (int64 and string only)", k, v)
		}
	}
	return json.Marshal(w)
}

// Decode implements scs.Codec. Data that is not JSON is a session written
// by an earlier Plaza with gob, read as such so that nobody is signed out.
func (sessionCodec) Decode(b []byte) (time.Time, map[string]any, error) {
	if !bytes.HasPrefix(b, []byte("{")) {
		return scs.GobCodec{}.Decode(b)
	}
	var w sessionWire
	if err := json.Unmarshal(b, &w); err != nil {
		return time.Time{}, nil, fmt.Errorf("decode session: %w", err)
	}
	values := make(map[string]any, len(w.Ints)+len(w.Strings))
	for k, v := range w.Ints {
		values[k] = v
	}
	for k, v := range w.Strings {
		values[k] = v
	}
	return w.Deadline, values, nil
}

// describeSession reads whose session data is, and from where it was last
// used, for the sessions table's list columns. Data it cannot read
// describes nobody.
func describeSession(data []byte) models.SessionMeta {
	_, values, err := sessionCodec{}.Decode(data)
	if err != nil {
		return models.SessionMeta{}
	}
	uid, _ := values[session.UserKey].(int64)
	ip, _ := values[session.IPKey].(string)
	ua, _ := values[session.AgentKey].(string)
	idle, _ := values[session.IdleKey].(int64)
	return models.SessionMeta{UserID: uid, IP: ip, UserAgent: ua, Idle: time.Duration(idle) * time.Second}
}
