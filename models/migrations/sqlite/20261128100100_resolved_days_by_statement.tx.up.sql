-- PostgreSQL only: SQLite writes each row's counters in place, with no
-- versions left behind in the transaction.
SELECT 1;
