DROP TABLE IF EXISTS search_rebuilds;
