DROP TABLE IF EXISTS webhook_deliveries;
--bun:split
DROP TABLE IF EXISTS webhooks;
