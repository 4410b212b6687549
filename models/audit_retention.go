package models

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/plazahq/plaza/internal/audit"
)

// auditAnchorKey is the setting that holds the chain's start once
// retention has removed its first entries: the id and hash of the last
// entry removed, which the first remaining entry links to, and how many
// were removed in all, sealed under the chain's key so that nobody
// without it can move the start past entries they deleted.
const auditAnchorKey = "audit.anchor"

type auditAnchor struct {
	ID    int64  `json:"id"`
	Hash  string `json:"hash"`
	Count int64  `json:"count"`
	Seal  string `json:"seal,omitempty"`
}

const startPurpose = "start"

func (a *auditAnchor) seal(key []byte) { a.Seal = audit.Seal(key, startPurpose, a.ID, a.Hash, a.Count) }

// sealed reports whether the start holds under key; the genesis needs no
// seal.
func (a auditAnchor) sealed(key []byte) bool {
	return a.ID == 0 && a.Hash == audit.Genesis && a.Count == 0 && a.Seal == "" ||
		audit.Sealed(key, a.Seal, startPurpose, a.ID, a.Hash, a.Count)
}

// anchor is where the chain starts now: the genesis, or the last entry
// retention removed.
func (s *Store) anchor(ctx context.Context) (auditAnchor, error) {
	a := auditAnchor{Hash: audit.Genesis}
	v, ok, err := s.Settings.Setting(ctx, auditAnchorKey)
	if err != nil || !ok {
		return a, err
	}
	return a, json.Unmarshal([]byte(v), &a)
}

// archivedEntry is one line of an audit archive: the entry as hashed.
type archivedEntry struct {
	ID            int64          `json:"id"`
	CreatedAt     time.Time      `json:"createdAt"`
	AdminID       *int64         `json:"adminId"`
	AdminUsername string         `json:"adminUsername"`
	Action        string         `json:"action"`
	TargetType    string         `json:"targetType"`
	TargetID      string         `json:"targetId"`
	IPAddress     string         `json:"ipAddress"`
	UserAgent     string         `json:"userAgent"`
	Status        int            `json:"status"`
	Details       map[string]any `json:"details"`
	PrevHash      string         `json:"prevHash"`
	Hash          string         `json:"hash"`
}

// ArchiveSignature is an archive's last line: an HMAC-SHA256 over every
// line before it, and what they hold.
type ArchiveSignature struct {
	Signature string `json:"signature"`
	Entries   int    `json:"entries"`
	FirstID   int64  `json:"firstId"`
	LastID    int64  `json:"lastId"`
}

// ArchiveAudit moves the entries made before cutoff out of the log, but
// never the newest entry, which the next append links to. It writes them,
// oldest first, as JSON Lines into dir, the last line signed with key
// (ArchiveSignature), and only then, in one transaction, deletes them and
// keeps the last one's hash as the chain's anchor, so that VerifyAudit
// still proves what remains. It returns the file's path and how many
// entries it moved ("" and 0 when none are due).
func (s Audit) ArchiveAudit(ctx context.Context, cutoff time.Time, dir string, key []byte) (string, int, error) {
	from, err := s.anchor(ctx)
	if err != nil {
		return "", 0, err
	}
	var upto sql.NullInt64
	err = s.DB.NewSelect().Model((*AuditEntry)(nil)).ColumnExpr("max(al.id)").
		Where("al.created_at < ?", cutoff).Where("al.id < (SELECT max(id) FROM audit_log)").Scan(ctx, &upto)
	if err != nil || !upto.Valid || upto.Int64 <= from.ID {
		return "", 0, err
	}
	path, last, n, err := s.writeArchive(ctx, dir, from.ID, upto.Int64, key)
	if err != nil {
		return "", 0, err
	}
	err = s.Change(ctx, func(ctx context.Context) error {
		if _, err := s.db(ctx).NewDelete().Model((*AuditEntry)(nil)).Where("id > ? AND id <= ?", from.ID, upto.Int64).Exec(ctx); err != nil {
			return err
		}
		start := auditAnchor{ID: upto.Int64, Hash: last, Count: from.Count + int64(n)}
		start.seal(s.AuditKey)
		anchor, _ := json.Marshal(start)
		return s.Settings.PutSetting(ctx, auditAnchorKey, string(anchor))
	})
	if err != nil {
		return "", 0, fmt.Errorf("remove archived audit entries: %w", err)
	}
	return path, n, nil
}

// writeArchive writes entries (after, upto] into a signed archive in dir
// and returns its path, the last entry's hash and how many it holds.
func (s *Store) writeArchive(ctx context.Context, dir string, after, upto int64, key []byte) (string, string, int, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", "", 0, err
	}
	tmp, err := os.CreateTemp(dir, ".audit-archive-*")
	if err != nil {
		return "", "", 0, err
	}
	defer os.Remove(tmp.Name()) // gone once renamed
	mac := hmac.New(sha256.New, key)
	w := bufio.NewWriter(io.MultiWriter(tmp, mac))
	sig := ArchiveSignature{}
	last := ""
	err = s.Audit.EachAuditEntry(ctx, AuditFilter{}.between(after, upto), func(e *AuditEntry) error {
		if sig.Entries == 0 {
			sig.FirstID = e.ID
		}
		sig.Entries, sig.LastID, last = sig.Entries+1, e.ID, e.Hash
		return writeLine(w, archivedEntry{ID: e.ID, CreatedAt: e.CreatedAt, AdminID: e.AdminID, AdminUsername: e.AdminUsername,
			Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID, IPAddress: e.IPAddress, UserAgent: e.UserAgent,
			Status: e.Status, Details: e.Details, PrevHash: e.PrevHash, Hash: e.Hash})
	})
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		sig.Signature = "hmac-sha256:" + hex.EncodeToString(mac.Sum(nil))
		err = writeLine(tmp, sig)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", 0, fmt.Errorf("write the audit archive: %w", err)
	}
	path := filepath.Join(dir, fmt.Sprintf("audit-archive-%d-%d.jsonl", sig.FirstID, sig.LastID))
	return path, last, sig.Entries, os.Rename(tmp.Name(), path)
}

func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// VerifyArchive checks an audit archive's signature with key and returns
// what it says it holds; a file changed in any byte fails.
func VerifyArchive(path string, key []byte) (*ArchiveSignature, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mac := hmac.New(sha256.New, key)
	r := bufio.NewReader(f)
	var prev []byte // the line read last, hashed once the next one shows it was not the signature
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) && len(line) == 0 {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if prev != nil {
			writeMAC(mac, prev)
		}
		prev = line
	}
	var sig ArchiveSignature
	if prev == nil || json.Unmarshal(prev, &sig) != nil || sig.Signature == "" {
		return nil, errors.New("the archive has no signature line")
	}
	if !hmac.Equal([]byte(sig.Signature), []byte("hmac-sha256:"+hex.EncodeToString(mac.Sum(nil)))) {
		return nil, errors.New("the archive's signature does not match its entries")
	}
	return &sig, nil
}

func writeMAC(h hash.Hash, b []byte) { h.Write(b) } //nolint:errcheck // a hash never fails to write
