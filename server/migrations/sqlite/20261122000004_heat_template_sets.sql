-- Uploaded Heat template sets: the text of every template file, as a JSON
-- map from its path (relative to the set's root) to its text.
CREATE TABLE heat_template_sets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    files TEXT NOT NULL
);
