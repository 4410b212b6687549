-- PostgreSQL only: SQLite keeps the events' hourly counter with its own triggers.
SELECT 1;
