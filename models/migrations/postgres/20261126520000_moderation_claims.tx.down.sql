DROP TABLE IF EXISTS moderation_claims;
