-- A broadcast is one row: each inbox reads the broadcasts addressed to
-- its owner when it is read, so a broadcast is in every inbox the moment
-- it is stored. Its targets are rows of their own, beside the time it goes
-- out (sent_at), so an inbox finds its broadcasts by index: "all", the
-- reader's role target and "user:<id>", from the reader's sign-up on.
CREATE TABLE broadcast_targets (
    broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    target       TEXT NOT NULL,
    sent_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (broadcast_id, target)
) WITHOUT ROWID;
--bun:split
CREATE INDEX broadcast_targets_inbox_idx ON broadcast_targets (target, sent_at, broadcast_id);
--bun:split
-- Read state is kept only for the people who read a broadcast.
CREATE TABLE broadcast_reads (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    broadcast_id INTEGER NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    read_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, broadcast_id)
) WITHOUT ROWID;
--bun:split
CREATE INDEX broadcast_reads_broadcast_idx ON broadcast_reads (broadcast_id);
--bun:split
-- sent_at is now when a broadcast goes out: set when it is stored, to its
-- scheduled time for a scheduled one (SQLite cannot add NOT NULL to a
-- column; Plaza never leaves it empty).
UPDATE broadcasts SET sent_at = COALESCE(scheduled_at, created_at) WHERE sent_at IS NULL;
--bun:split
INSERT INTO broadcast_targets (broadcast_id, target, sent_at)
SELECT DISTINCT bc.id, t.value, bc.sent_at
FROM broadcasts AS bc, json_each(bc.targets) AS t;
--bun:split
-- The rows each recipient got: their read state becomes a read mark, then
-- they go. The table is rebuilt without broadcast_id, which a foreign key
-- and an index hold in place.
INSERT INTO broadcast_reads (user_id, broadcast_id, read_at)
SELECT n.user_id, n.broadcast_id, min(n.read_at)
FROM notifications AS n
JOIN users AS u ON u.id = n.user_id
JOIN broadcasts AS bc ON bc.id = n.broadcast_id
WHERE n.read_at IS NOT NULL
GROUP BY n.user_id, n.broadcast_id;
--bun:split
CREATE TABLE notifications_new (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        TEXT NOT NULL,
    message      TEXT NOT NULL,
    type         TEXT NOT NULL CHECK (type IN ('info', 'success', 'warning', 'critical')),
    created_at   TIMESTAMP NOT NULL,
    read_at      TIMESTAMP
);
--bun:split
INSERT INTO notifications_new (id, user_id, title, message, type, created_at, read_at)
SELECT id, user_id, title, message, type, created_at, read_at FROM notifications WHERE broadcast_id IS NULL;
--bun:split
DROP TABLE notifications;
--bun:split
ALTER TABLE notifications_new RENAME TO notifications;
--bun:split
CREATE INDEX notifications_user_id_idx ON notifications (user_id, created_at);
--bun:split
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;
--bun:split
ALTER TABLE broadcasts DROP COLUMN last_user_id;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered_through;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered_at;
