-- The installation's shared tables (system scope, this build's version: DdlScope.SYSTEM). Every statement is
-- idempotent.

-- name: create_schema
CREATE SCHEMA IF NOT EXISTS {schema}

-- name: create_system_config
CREATE TABLE IF NOT EXISTS {schema}.system_config (
    id         BIGSERIAL PRIMARY KEY,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_stream_config
CREATE TABLE IF NOT EXISTS {schema}.stream_config (
    id                           BIGSERIAL PRIMARY KEY,
    system_id                    BIGINT NOT NULL REFERENCES {schema}.system_config (id) ON DELETE CASCADE,
    name                         TEXT NOT NULL UNIQUE,
    partition_size               BIGINT NOT NULL,
    retention_ttl_ns             BIGINT NOT NULL DEFAULT 0,
    allow_drop_past_committed    BOOLEAN NOT NULL DEFAULT false,
    idempotency_key_ttl_ns       BIGINT NOT NULL DEFAULT 86400000000000,
    empty_compaction_head_ttl_ns BIGINT NOT NULL DEFAULT 3600000000000,
    delivery_log_mode            TEXT NOT NULL DEFAULT 'failures',
    fence_warn_after_ns          BIGINT NOT NULL DEFAULT 10000000000,
    created_at                   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at                   TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_stream_config_log
CREATE TABLE IF NOT EXISTS {schema}.stream_config_log (
    id                           BIGSERIAL PRIMARY KEY,
    stream_id                    BIGINT NOT NULL REFERENCES {schema}.stream_config (id) ON DELETE CASCADE,
    name                         TEXT NOT NULL,
    partition_size               BIGINT NOT NULL,
    retention_ttl_ns             BIGINT NOT NULL,
    allow_drop_past_committed    BOOLEAN NOT NULL,
    idempotency_key_ttl_ns       BIGINT NOT NULL,
    empty_compaction_head_ttl_ns BIGINT NOT NULL,
    delivery_log_mode            TEXT NOT NULL,
    fence_warn_after_ns          BIGINT NOT NULL DEFAULT 10000000000,
    declared_by                  TEXT NOT NULL,
    declared_at                  TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_stream_config_log_index
CREATE INDEX IF NOT EXISTS stream_config_log_stream_id_idx ON {schema}.stream_config_log (stream_id, id)

-- name: create_consumer_group_config
CREATE TABLE IF NOT EXISTS {schema}.consumer_group_config (
    id         BIGSERIAL PRIMARY KEY,
    stream_id  BIGINT NOT NULL REFERENCES {schema}.stream_config (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (stream_id, name)
)

-- name: create_worker_config
CREATE TABLE IF NOT EXISTS {schema}.worker_config (
    id                BIGSERIAL PRIMARY KEY,
    system_id         BIGINT REFERENCES {schema}.system_config (id) ON DELETE CASCADE,
    stream_id         BIGINT REFERENCES {schema}.stream_config (id) ON DELETE CASCADE,
    consumer_group_id BIGINT REFERENCES {schema}.consumer_group_config (id) ON DELETE CASCADE,
    name              TEXT NOT NULL,
    metadata          JSONB NOT NULL DEFAULT '{}',
    target_instances  INT NOT NULL DEFAULT 1 CHECK (target_instances >= -1),
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (num_nonnulls(system_id, stream_id, consumer_group_id) = 1)
)

-- name: create_worker_config_stream_index
CREATE UNIQUE INDEX IF NOT EXISTS worker_config_stream_name_idx
    ON {schema}.worker_config (name, stream_id) WHERE stream_id IS NOT NULL

-- name: create_worker_config_group_index
CREATE UNIQUE INDEX IF NOT EXISTS worker_config_group_name_idx
    ON {schema}.worker_config (name, consumer_group_id) WHERE consumer_group_id IS NOT NULL

-- name: create_worker_config_system_index
CREATE UNIQUE INDEX IF NOT EXISTS worker_config_system_name_idx
    ON {schema}.worker_config (name, system_id) WHERE system_id IS NOT NULL

-- name: create_worker_config_log
CREATE TABLE IF NOT EXISTS {schema}.worker_config_log (
    id               BIGSERIAL PRIMARY KEY,
    worker_id        BIGINT NOT NULL REFERENCES {schema}.worker_config (id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    metadata         JSONB NOT NULL,
    target_instances INT NOT NULL,
    declared_by      TEXT NOT NULL,
    declared_at      TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_worker_config_log_index
CREATE INDEX IF NOT EXISTS worker_config_log_worker_id_idx ON {schema}.worker_config_log (worker_id, id)

-- name: create_worker_instance
CREATE TABLE IF NOT EXISTS {schema}.worker_instance (
    id         BIGSERIAL PRIMARY KEY,
    worker_id  BIGINT NOT NULL REFERENCES {schema}.worker_config (id) ON DELETE CASCADE,
    token      UUID NOT NULL DEFAULT gen_random_uuid(),
    expires_at TIMESTAMPTZ NOT NULL,
    attempts   INT NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_worker_instance_worker_index
CREATE INDEX IF NOT EXISTS worker_instance_worker_id_idx ON {schema}.worker_instance (worker_id)

-- name: create_worker_instance_expiry_index
CREATE INDEX IF NOT EXISTS worker_instance_expires_at_idx ON {schema}.worker_instance (expires_at)

-- name: create_worker_instance_log
CREATE TABLE IF NOT EXISTS {schema}.worker_instance_log (
    id                 BIGSERIAL PRIMARY KEY,
    worker_instance_id BIGINT NOT NULL,
    worker_id          BIGINT NOT NULL REFERENCES {schema}.worker_config (id) ON DELETE CASCADE,
    token              UUID NOT NULL,
    expires_at         TIMESTAMPTZ NOT NULL,
    attempts           INT NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    attempted_at       TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_worker_instance_log_worker_index
CREATE INDEX IF NOT EXISTS worker_instance_log_worker_id_idx ON {schema}.worker_instance_log (worker_id, id)

-- name: create_worker_instance_log_expiry_index
CREATE INDEX IF NOT EXISTS worker_instance_log_expires_at_idx ON {schema}.worker_instance_log (expires_at)

-- name: create_schedule_config
CREATE TABLE IF NOT EXISTS {schema}.schedule_config (
    id             BIGSERIAL PRIMARY KEY,
    system_id      BIGINT NOT NULL REFERENCES {schema}.system_config (id) ON DELETE CASCADE,
    stream_id      BIGINT NOT NULL REFERENCES {schema}.stream_config (id) ON DELETE CASCADE,
    name           TEXT NOT NULL UNIQUE,
    expression     TEXT NOT NULL,
    suspended      BOOLEAN NOT NULL DEFAULT false,
    schema_version INTEGER NOT NULL,
    payload        JSONB NOT NULL DEFAULT '{}',
    concurrency    TEXT NOT NULL DEFAULT 'parallel',
    timeout_ns     BIGINT NOT NULL CHECK (timeout_ns > 0),
    metadata       JSONB NOT NULL DEFAULT '{}',
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_schedule_cursor
CREATE TABLE IF NOT EXISTS {schema}.schedule_cursor (
    id                BIGSERIAL PRIMARY KEY,
    schedule_id       BIGINT NOT NULL UNIQUE REFERENCES {schema}.schedule_config (id) ON DELETE CASCADE,
    next_scheduled_at TIMESTAMPTZ NOT NULL,
    last_scheduled_at TIMESTAMPTZ
)

-- name: create_schedule_cursor_index
CREATE INDEX IF NOT EXISTS schedule_cursor_next_idx ON {schema}.schedule_cursor (next_scheduled_at)

-- name: create_consumer_group_action_log
-- The audit trail of operator actions on a group; its newest pause or resume also says whether the group is paused.
CREATE TABLE IF NOT EXISTS {schema}.consumer_group_action_log (
    id                BIGSERIAL PRIMARY KEY,
    consumer_group_id BIGINT NOT NULL REFERENCES {schema}.consumer_group_config (id) ON DELETE CASCADE,
    action            TEXT NOT NULL CHECK (action IN ('redrive', 'discard', 'pause', 'resume')),
    actor             TEXT NOT NULL,
    filter            JSONB NOT NULL DEFAULT '{}',
    affected          BIGINT NOT NULL DEFAULT 0,
    acted_at          TIMESTAMPTZ NOT NULL DEFAULT now()
)

-- name: create_consumer_group_action_log_index
CREATE INDEX IF NOT EXISTS consumer_group_action_log_group_idx
    ON {schema}.consumer_group_action_log (consumer_group_id, action, id)

-- name: create_migration_log
CREATE TABLE IF NOT EXISTS {schema}.migration_log (
    id                     BIGSERIAL PRIMARY KEY,
    system_id              BIGINT REFERENCES {schema}.system_config (id) ON DELETE CASCADE,
    stream_id              BIGINT REFERENCES {schema}.stream_config (id) ON DELETE CASCADE,
    consumer_group_id      BIGINT REFERENCES {schema}.consumer_group_config (id) ON DELETE CASCADE,
    version                INTEGER NOT NULL,
    min_compatible_version INTEGER NOT NULL DEFAULT 0,
    status                 TEXT NOT NULL CHECK (status IN ('success', 'failure')),
    error                  TEXT,
    created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (num_nonnulls(system_id, stream_id, consumer_group_id) = 1)
)
