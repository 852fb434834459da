-- Plugins are stored whole: their package data as core loaded it
-- (`mosaic_core::plugin::Package`, as JSON), their kind and the warnings
-- their validation gave at install time.
ALTER TABLE plugins ADD COLUMN package_version TEXT NOT NULL DEFAULT '5.0.0';
ALTER TABLE plugins ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE plugins ADD COLUMN kind TEXT NOT NULL DEFAULT 'release';
ALTER TABLE plugins ADD COLUMN data TEXT NOT NULL DEFAULT '{}';
ALTER TABLE plugins ADD COLUMN warnings TEXT NOT NULL DEFAULT '[]';
