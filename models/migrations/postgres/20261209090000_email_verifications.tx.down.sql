DROP TABLE email_verifications;
