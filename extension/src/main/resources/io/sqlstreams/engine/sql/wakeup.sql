-- Commit announcements: the wake-up of idle consume sessions (PostgreSQL LISTEN/NOTIFY on one channel for every
-- installation of the database; each payload names its schema).

-- name: announce_commits
-- Its own auto-commit transaction, never a producer's: a commit with a pending notification takes a database-wide
-- lock that would serialise every producer's commit.
SELECT pg_notify('sqlstreams_wakeup', :payload)

-- name: listen_for_commits
LISTEN sqlstreams_wakeup

-- name: stop_listening_for_commits
UNLISTEN sqlstreams_wakeup

-- name: backend_pid
-- Which server process runs the connection's statements; behind a pooler, not the one its cancel key names.
SELECT pg_backend_pid() AS pid
