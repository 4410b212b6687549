-- A broadcast is one row: each inbox reads the broadcasts addressed to
-- its owner when it is read, so a broadcast is in every inbox the moment
-- it is stored. Its targets are rows of their own, beside the time it goes
-- out (sent_at), so an inbox finds its broadcasts by index: "all", the
-- reader's role target and "user:<id>", from the reader's sign-up on.
CREATE TABLE broadcast_targets (
    broadcast_id bigint NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    target       text NOT NULL,
    sent_at      timestamptz NOT NULL,
    PRIMARY KEY (broadcast_id, target)
);
--bun:split
CREATE INDEX broadcast_targets_inbox_idx ON broadcast_targets (target, sent_at, broadcast_id);
--bun:split
-- Read state is kept only for the people who read a broadcast.
CREATE TABLE broadcast_reads (
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    broadcast_id bigint NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    read_at      timestamptz NOT NULL,
    PRIMARY KEY (user_id, broadcast_id)
);
--bun:split
CREATE INDEX broadcast_reads_broadcast_idx ON broadcast_reads (broadcast_id);
--bun:split
-- sent_at is now when a broadcast goes out: set when it is stored, to its
-- scheduled time for a scheduled one.
UPDATE broadcasts SET sent_at = COALESCE(scheduled_at, created_at) WHERE sent_at IS NULL;
--bun:split
ALTER TABLE broadcasts ALTER COLUMN sent_at SET NOT NULL;
--bun:split
INSERT INTO broadcast_targets (broadcast_id, target, sent_at)
SELECT DISTINCT bc.id, t.target, bc.sent_at
FROM broadcasts AS bc, jsonb_array_elements_text(bc.targets) AS t (target);
--bun:split
-- The rows each recipient got: their read state becomes a read mark, then
-- they go.
INSERT INTO broadcast_reads (user_id, broadcast_id, read_at)
SELECT n.user_id, n.broadcast_id, min(n.read_at)
FROM notifications AS n
JOIN users AS u ON u.id = n.user_id
JOIN broadcasts AS bc ON bc.id = n.broadcast_id
WHERE n.read_at IS NOT NULL
GROUP BY n.user_id, n.broadcast_id;
--bun:split
DELETE FROM notifications WHERE broadcast_id IS NOT NULL;
--bun:split
ALTER TABLE notifications DROP COLUMN broadcast_id;
--bun:split
ALTER TABLE broadcasts DROP COLUMN last_user_id;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered_through;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered_at;
