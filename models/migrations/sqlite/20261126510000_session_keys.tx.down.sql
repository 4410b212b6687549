-- A hash cannot be turned back into its token: going back ends every session.
DELETE FROM sessions;
