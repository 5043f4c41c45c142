-- The system manager's statements: the system's own worker rows, the workers it reconciles, and the sweeps of
-- expired liveness rows.

-- name: system_worker_metadata
SELECT id, metadata::text AS metadata FROM {schema}.worker_config WHERE system_id = :system_id AND name = :name

-- name: insert_system_worker
INSERT INTO {schema}.worker_config (system_id, name, metadata, target_instances)
VALUES (:system_id, :name, :metadata::jsonb, :target_instances)
RETURNING id

-- name: fleet_workers
-- Every worker the system manager may run: the system's own and every stream's, with the owning stream's name and
-- id, and its count of live instances; a consumer group's workers run inside its sessions instead.
SELECT w.id, w.name, w.system_id, w.stream_id, s.name AS stream_name, w.target_instances, w.metadata::text AS metadata,
       (SELECT count(*) FROM {schema}.worker_instance i WHERE i.worker_id = w.id AND i.expires_at > now())
           AS live_instances
FROM {schema}.worker_config w LEFT JOIN {schema}.stream_config s ON s.id = w.stream_id
WHERE w.consumer_group_id IS NULL
ORDER BY w.id

-- name: sweep_expired_worker_instances
-- An expired row counts for no claim and no renewal can revive it, so deleting it changes nothing but the table.
DELETE FROM {schema}.worker_instance WHERE expires_at <= now()

-- name: sweep_worker_instance_log
-- One batch of liveness history recorded to expire more than the log TTL ago; the caller repeats while a batch fills.
DELETE FROM {schema}.worker_instance_log
WHERE id IN (
    SELECT id FROM {schema}.worker_instance_log
    WHERE expires_at < now() - :log_ttl_micros * interval '1 microsecond'
    ORDER BY expires_at
    LIMIT :batch_size
)

-- name: sweep_superseded_binding_waits
-- A stream's waiting binding declarations that a later declaration of the same group has superseded, recorded
-- longer ago than :age_micros; the group's newest declaration always stays.
DELETE FROM {schema}.binding_config_log_{id} waiting
WHERE waiting.status = :waiting_status
  AND waiting.attempted_at < now() - :age_micros * interval '1 microsecond'
  AND EXISTS (SELECT 1 FROM {schema}.binding_config_log_{id} later
              WHERE later.consumer_group_id = waiting.consumer_group_id AND later.id > waiting.id)
