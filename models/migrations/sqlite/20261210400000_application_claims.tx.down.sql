DROP TABLE IF EXISTS application_claims;
