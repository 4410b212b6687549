CREATE TABLE webhook_deliveries_new (
    id               INTEGER PRIMARY KEY,
    webhook_id       INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    message_id       TEXT NOT NULL UNIQUE,
    event            TEXT NOT NULL,
    payload          TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    last_status_code INTEGER,
    last_error       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL,
    last_attempt_at  TIMESTAMP,
    delivered_at     TIMESTAMP
);
--bun:split
INSERT INTO webhook_deliveries_new (id, webhook_id, message_id, event, payload, attempts, status, last_status_code,
    last_error, created_at, last_attempt_at, delivered_at)
SELECT id, webhook_id, message_id, event, payload, attempts, CASE status WHEN 'cancelled' THEN 'failed' ELSE status END, last_status_code,
    last_error, created_at, last_attempt_at, delivered_at FROM webhook_deliveries;
--bun:split
DROP TABLE webhook_deliveries;
--bun:split
ALTER TABLE webhook_deliveries_new RENAME TO webhook_deliveries;
--bun:split
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, id);
