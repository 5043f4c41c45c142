-- The steps of the stream scope's DDL versions (DdlScope.STREAM): each step's up and down, on one stream's family.

-- name: add_message_headers
-- Stream scope version 2. Additive: an older build never names the column.
ALTER TABLE {schema}.message_log_{id} ADD COLUMN IF NOT EXISTS headers JSONB

-- name: drop_message_headers
ALTER TABLE {schema}.message_log_{id} DROP COLUMN IF EXISTS headers
