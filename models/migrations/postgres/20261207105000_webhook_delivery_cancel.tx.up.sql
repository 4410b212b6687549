ALTER TABLE webhook_deliveries ADD COLUMN next_attempt_at timestamptz;
--bun:split
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check;
--bun:split
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
    CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled'));
