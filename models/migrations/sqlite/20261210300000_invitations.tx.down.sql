DROP TABLE invitation_uses;
--bun:split
DROP TABLE invitations;
