-- The credentials' generation: revoking a token or ending a session
-- increments it, so that replicas forget the credentials they found valid.
INSERT INTO generations (name, value) VALUES ('access', 1);
