-- Nothing to undo: the sequence only moved forward.
SELECT 1;
