-- User searches match a substring of several columns at once: username
-- and name for anyone, and the email too for staff. One trigram index over
-- the columns joined (by a unit separator, which no name holds, so no
-- match spans two columns by accident) lists the matches in one scan,
-- where an index per column took three and a union: about half the time
-- per search over a million users. The name's own index is then unused;
-- the username's and the email's stay for the versioned admin list, whose
-- search matches those two alone.
CREATE INDEX users_profile_search_trgm_idx ON users
    USING gin ((username || E'\x1f' || coalesce(name, '')) gin_trgm_ops);

--bun:split

CREATE INDEX users_staff_search_trgm_idx ON users
    USING gin ((coalesce(name, '') || E'\x1f' || username || E'\x1f' || email) gin_trgm_ops);

--bun:split

-- The planner's guess at how many users a substring matches comes from a
-- sample of these texts: at the default size, a name that one user in a
-- hundred holds is taken for one in ten thousand, and a search then
-- fetches every match instead of those in its window of ids.
ALTER INDEX users_profile_search_trgm_idx ALTER COLUMN 1 SET STATISTICS 1000;

--bun:split

ALTER INDEX users_staff_search_trgm_idx ALTER COLUMN 1 SET STATISTICS 1000;

--bun:split

DROP INDEX users_name_trgm_idx;
