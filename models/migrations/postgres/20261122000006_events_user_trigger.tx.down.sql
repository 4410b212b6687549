DROP TRIGGER IF EXISTS users_detach_events ON users;
--bun:split
DROP FUNCTION IF EXISTS plaza_detach_user_events();
--bun:split
UPDATE analytics_events SET user_id = NULL WHERE user_id IS NOT NULL AND user_id NOT IN (SELECT id FROM users);
--bun:split
ALTER TABLE analytics_events ADD CONSTRAINT analytics_events_user_id_fkey
    FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;
