DROP TRIGGER IF EXISTS users_learn_words_update ON users;
--bun:split
DROP TRIGGER IF EXISTS users_learn_words_insert ON users;
--bun:split
DROP TRIGGER IF EXISTS posts_learn_words_update ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_learn_words_insert ON posts;
--bun:split
DROP FUNCTION IF EXISTS plaza_learn_user_words();
--bun:split
DROP FUNCTION IF EXISTS plaza_learn_post_words();
--bun:split
DROP FUNCTION IF EXISTS plaza_words(text);
--bun:split
DROP TABLE IF EXISTS search_words;
