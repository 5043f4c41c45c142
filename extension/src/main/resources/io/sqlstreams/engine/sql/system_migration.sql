-- The steps of the system scope's DDL versions (DdlScope.SYSTEM): each step's up and down, on the shared tables.
-- A step is one statement, so one that changes two tables is a DO block.

-- name: add_stream_fence_warn_after
-- System scope version 2. Additive: an older build never names the column, and its rows get the default.
DO $$
BEGIN
    ALTER TABLE {schema}.stream_config
        ADD COLUMN IF NOT EXISTS fence_warn_after_ns BIGINT NOT NULL DEFAULT 10000000000;
    ALTER TABLE {schema}.stream_config_log
        ADD COLUMN IF NOT EXISTS fence_warn_after_ns BIGINT NOT NULL DEFAULT 10000000000;
END
$$

-- name: drop_stream_fence_warn_after
DO $$
BEGIN
    ALTER TABLE {schema}.stream_config_log DROP COLUMN IF EXISTS fence_warn_after_ns;
    ALTER TABLE {schema}.stream_config DROP COLUMN IF EXISTS fence_warn_after_ns;
END
$$
