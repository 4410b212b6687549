package models

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/wiretime"
)

// auditKeyedKey is the setting that records where the chain became keyed:
// the last entry hashed without the key (0: none), its hash, which key
// took over and when, sealed under that key. Entries up to it are checked
// by their unkeyed hash, every later one by its keyed hash; nobody
// without the key can move the cut-over or make one up.
const auditKeyedKey = "audit.keyed"

type auditCutOver struct {
	After int64  `json:"after"`
	Hash  string `json:"hash"`
	KeyID string `json:"keyId"`
	At    string `json:"at"`
	Seal  string `json:"seal,omitempty"`
}

const cutOverPurpose = "cut-over"

func (c *auditCutOver) seal(key []byte) {
	c.Seal = audit.Seal(key, cutOverPurpose, c.After, c.Hash, c.KeyID, c.At)
}

// sealed reports whether the cut-over holds under key; none recorded (a
// chain keyed from its first entry) needs no seal.
func (c auditCutOver) sealed(key []byte) bool {
	return c == auditCutOver{} || audit.Sealed(key, c.Seal, cutOverPurpose, c.After, c.Hash, c.KeyID, c.At)
}

// cutOver reads the recorded cut-over; none is the zero value. One that
// cannot be read is returned unsealed, so that verify reports it.
func (s *Store) cutOver(ctx context.Context) (auditCutOver, error) {
	var c auditCutOver
	v, ok, err := s.Settings.Setting(ctx, auditKeyedKey)
	if err != nil || !ok {
		return c, err
	}
	if json.Unmarshal([]byte(v), &c) != nil {
		return auditCutOver{Seal: "unreadable"}, nil
	}
	return c, nil
}

// AuditKeying is how SealAuditChain found the chain.
type AuditKeying struct {
	// KeyedAfter is the last entry hashed without the key (0: none).
	KeyedAfter int64
	// Recorded: this call recorded the cut-over (the first start with a key).
	Recorded bool
	// OtherKey: the cut-over was recorded under another key than
	// AuditKey, so every keyed entry will fail verification.
	OtherKey bool
}

// SealAuditChain records, once, where the chain becomes keyed: every
// entry written until now keeps its unkeyed hash, every later one is keyed
// with AuditKey. It also seals a chain start that retention recorded
// before starts were sealed. Call it at start, before anything is
// audited; later calls only report what was recorded.
func (s Audit) SealAuditChain(ctx context.Context) (AuditKeying, error) {
	var k AuditKeying
	err := s.Change(ctx, func(ctx context.Context) error {
		db := s.db(ctx)
		if err := lockAuditChain(ctx, db); err != nil {
			return err
		}
		c, err := s.cutOver(ctx)
		if err != nil {
			return err
		}
		if c != (auditCutOver{}) {
			k = AuditKeying{KeyedAfter: c.After, OtherKey: c.KeyID != audit.KeyID(s.AuditKey) || !c.sealed(s.AuditKey)}
			return nil
		}
		start, err := s.anchor(ctx)
		if err != nil {
			return err
		}
		c = auditCutOver{After: start.ID, Hash: start.Hash, KeyID: audit.KeyID(s.AuditKey), At: wiretime.Format(s.now())}
		var last AuditEntry
		err = db.NewSelect().Model(&last).Column("id", "hash").OrderExpr("id DESC").Limit(1).Scan(ctx)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil {
			c.After, c.Hash = last.ID, last.Hash
		}
		c.seal(s.AuditKey)
		if err := s.putJSONSetting(ctx, auditKeyedKey, c); err != nil {
			return err
		}
		k = AuditKeying{KeyedAfter: c.After, Recorded: true}
		if start.ID == 0 || start.Seal != "" {
			return nil
		}
		start.seal(s.AuditKey)
		return s.putJSONSetting(ctx, auditAnchorKey, start)
	})
	return k, err
}

func (s *Store) putJSONSetting(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.Settings.PutSetting(ctx, key, string(b))
}

// AuditAnchor is the chain's end now, signed with the chain's key: how
// many entries the chain holds from its first one (archived ones
// included), the last one's id and hash. Counted and read in one
// statement, so in one snapshot.
func (s Audit) AuditAnchor(ctx context.Context) (audit.Anchor, error) {
	var row struct {
		ID    int64
		Hash  string
		N     int64
		Start sql.NullString
	}
	err := s.DB.NewRaw(`SELECT al.id, al.hash, (SELECT count(*) FROM audit_log WHERE id <= al.id) AS n,
		(SELECT value FROM settings WHERE key = ?) AS start
		FROM audit_log AS al ORDER BY al.id DESC LIMIT 1`, auditAnchorKey).Scan(ctx, &row)
	if errors.Is(err, sql.ErrNoRows) {
		start, err := s.anchor(ctx)
		if err != nil {
			return audit.Anchor{}, err
		}
		row.ID, row.Hash, row.N = start.ID, start.Hash, start.Count
	} else if err != nil {
		return audit.Anchor{}, err
	} else if row.Start.Valid {
		var start auditAnchor
		if err := json.Unmarshal([]byte(row.Start.String), &start); err != nil {
			return audit.Anchor{}, err
		}
		row.N += start.Count
	}
	a := audit.Anchor{Count: row.N, LastID: strconv.FormatInt(row.ID, 10), LastHash: row.Hash, At: wiretime.Format(s.now())}
	a.Sign(s.AuditKey)
	return a, nil
}
