-- One stream's table family (stream scope, version 1); {id} is the stream's numeric id.

-- name: create_message_log_sequence
CREATE SEQUENCE {schema}.message_log_{id}_id_seq AS BIGINT CACHE 1

-- name: create_message_log
CREATE TABLE {schema}.message_log_{id} (
    id              BIGINT NOT NULL DEFAULT nextval('{schema}.message_log_{id}_id_seq'),
    schema_version  INTEGER NOT NULL,
    routing_key     TEXT,
    message_key     TEXT,
    compaction_rank BIGINT,
    payload         JSONB NOT NULL,
    options         JSONB,
    headers         JSONB,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (id)
) PARTITION BY RANGE (id)

-- name: own_message_log_sequence
ALTER SEQUENCE {schema}.message_log_{id}_id_seq OWNED BY {schema}.message_log_{id}.id

-- name: create_message_log_key_index
CREATE INDEX message_log_{id}_message_key_idx ON {schema}.message_log_{id} (message_key, id)
    WHERE message_key IS NOT NULL

-- name: create_idempotency_key
CREATE TABLE {schema}.idempotency_key_{id} (
    idempotency_key UUID PRIMARY KEY,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_idempotency_key_index
CREATE INDEX idempotency_key_{id}_created_at_idx ON {schema}.idempotency_key_{id} (created_at)

-- name: create_exception_queue
CREATE TABLE {schema}.exception_queue_{id} (
    consumer_group_id BIGINT NOT NULL,
    message_id        BIGINT NOT NULL,
    status            TEXT NOT NULL,
    message_key       TEXT,
    concurrency       TEXT NOT NULL,
    attempts          INT NOT NULL DEFAULT 0,
    delays            INT NOT NULL DEFAULT 0,
    can_run_after     TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_error        TEXT,
    lease_token       UUID,
    lease_expires_at  TIMESTAMPTZ,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer_group_id, message_id)
)

-- name: create_exception_queue_key_index
CREATE INDEX exception_queue_{id}_key_idx ON {schema}.exception_queue_{id} (consumer_group_id, message_key, message_id)

-- name: create_delivery_log
CREATE TABLE {schema}.delivery_log_{id} (
    id                BIGSERIAL PRIMARY KEY,
    consumer_group_id BIGINT NOT NULL,
    message_id        BIGINT NOT NULL,
    attempt           INT NOT NULL,
    status            TEXT NOT NULL DEFAULT 'failure',
    error             TEXT NOT NULL,
    attempted_at      TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_delivery_log_index
CREATE INDEX delivery_log_{id}_message_idx ON {schema}.delivery_log_{id} (consumer_group_id, message_id, attempt)

-- name: create_consumer_group_cursor
CREATE TABLE {schema}.consumer_group_cursor_{id} (
    id                BIGSERIAL PRIMARY KEY,
    consumer_group_id BIGINT NOT NULL UNIQUE REFERENCES {schema}.consumer_group_config (id) ON DELETE CASCADE,
    claimed           BIGINT NOT NULL DEFAULT 0,
    committed         BIGINT NOT NULL DEFAULT 0,
    settled_head      BIGINT NOT NULL DEFAULT 0,
    pending_head      BIGINT NOT NULL DEFAULT 0,
    pending_xid       XID8
)

-- name: create_claim_lease
CREATE TABLE {schema}.claim_lease_{id} (
    consumer_group_id BIGINT NOT NULL,
    token             UUID NOT NULL DEFAULT gen_random_uuid(),
    low               BIGINT NOT NULL,
    high              BIGINT NOT NULL,
    expires_at        TIMESTAMPTZ NOT NULL,
    reclaims          INT NOT NULL DEFAULT 0,
    PRIMARY KEY (consumer_group_id, token)
)

-- name: create_message_key_lease
CREATE TABLE {schema}.message_key_lease_{id} (
    consumer_group_id BIGINT NOT NULL,
    message_key       TEXT NOT NULL,
    token             UUID NOT NULL,
    expires_at        TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (consumer_group_id, message_key)
)

-- name: create_compaction_head
CREATE TABLE {schema}.compaction_head_{id} (
    compaction_key  TEXT PRIMARY KEY,
    message_id      BIGINT,
    schema_version  INTEGER,
    compaction_rank BIGINT,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (num_nulls(message_id, schema_version, compaction_rank) IN (0, 3))
)

-- name: create_compaction_head_empty_index
CREATE INDEX compaction_head_{id}_empty_idx ON {schema}.compaction_head_{id} (updated_at, compaction_key)
    WHERE message_id IS NULL

-- name: create_binding_config
CREATE TABLE {schema}.binding_config_{id} (
    id                BIGSERIAL PRIMARY KEY,
    consumer_group_id BIGINT NOT NULL REFERENCES {schema}.consumer_group_config (id) ON DELETE CASCADE,
    pattern           TEXT NOT NULL,
    pattern_regex     TEXT NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (consumer_group_id, pattern_regex)
)

-- name: create_binding_config_log
CREATE TABLE {schema}.binding_config_log_{id} (
    id                BIGSERIAL PRIMARY KEY,
    consumer_group_id BIGINT NOT NULL REFERENCES {schema}.consumer_group_config (id) ON DELETE CASCADE,
    status            TEXT NOT NULL CHECK (status IN ('installed', 'waiting')),
    patterns          TEXT[] NOT NULL,
    declared_by       TEXT NOT NULL,
    declared_at       TIMESTAMPTZ NOT NULL,
    attempted_at      TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_binding_config_log_index
CREATE INDEX binding_config_log_{id}_idx ON {schema}.binding_config_log_{id} (consumer_group_id, status, declared_by, id)

-- name: drop_family
DROP TABLE IF EXISTS {schema}.message_log_{id}, {schema}.idempotency_key_{id}, {schema}.exception_queue_{id},
    {schema}.delivery_log_{id}, {schema}.consumer_group_cursor_{id}, {schema}.claim_lease_{id},
    {schema}.message_key_lease_{id}, {schema}.compaction_head_{id}, {schema}.binding_config_{id},
    {schema}.binding_config_log_{id} CASCADE

-- The one lock timeout all of the engine's DDL runs under (io.sqlstreams.engine.query.DdlLockTimeout), set for
-- the rest of the transaction.

-- name: set_local_lock_timeout
SELECT set_config('lock_timeout', :lock_timeout, true) AS lock_timeout

-- name: lock_timeout
SELECT current_setting('lock_timeout') AS lock_timeout
