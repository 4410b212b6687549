DROP TABLE user_recovery_codes;
--bun:split
DROP TABLE user_two_factor;
