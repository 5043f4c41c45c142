-- Commit announcements: the wake-up of idle consume sessions (PostgreSQL LISTEN/NOTIFY on one channel for every
-- installation of the database; each payload names its schema).

-- name: announce_commits
-- Its own auto-commit transaction, never a producer's: a commit with a pending notification takes a database-wide
-- lock that would serialise every producer's commit. A notification gives its transaction an id, so the commit
-- would wait for a WAL flush of its own, up to 200 a second beside the producers' flushes; it is not made durable
-- (a local setting, still in force at this statement's commit): one lost in a server crash costs a poll.
SELECT set_config('synchronous_commit', 'off', true) AS synchronous_commit, pg_notify('sqlstreams_wakeup', :payload)

-- name: listen_for_commits
LISTEN sqlstreams_wakeup

-- name: stop_listening_for_commits
UNLISTEN sqlstreams_wakeup

-- name: backend_pid
-- Which server process runs the connection's statements: a transaction-mode pooler (PgBouncer) may run each
-- transaction on another one.
SELECT pg_backend_pid() AS pid
