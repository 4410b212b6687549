UPDATE webhook_deliveries SET status = 'failed' WHERE status = 'cancelled';
--bun:split
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check;
--bun:split
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
    CHECK (status IN ('pending', 'delivered', 'failed'));
--bun:split
ALTER TABLE webhook_deliveries DROP COLUMN next_attempt_at;
