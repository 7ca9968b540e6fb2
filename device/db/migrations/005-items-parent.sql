-- Every row's parent, whatever its state: a folder delete walks down the tree through it. The indexes of
-- 001 hold live rows only, so each step of that walk (and with it each DELETE) read the whole table.
CREATE INDEX items_parent ON items(parent_id);
