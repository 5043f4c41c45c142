package io.sqlstreams;

import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The diagnostic code catalogue. Errors, log events, metrics and alerts share one numbering space,
 * {@code SQL0001} to {@code SQL0141}, each number used exactly once; {@link #kind()} says which of
 * the four a code is. Every {@link SqlStreamsException} carries its code, and every log line the
 * library writes starts with the code of its event, so an operator can look any line up here.
 *
 * <p>{@code SQL0108} (invalid configuration) and {@code SQL0109} (invalid name) report bad input
 * before anything is written; {@code SQL0110} and {@code SQL0111} report database failures that no more
 * specific code describes; {@code SQL0112} a stored payload that does not decode. Events at
 * {@link Level#DEBUG} are written only when the logger enables that level.
 */
public enum Code {
    SQL0001(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "AlreadyConsuming",
            "Consume was called on a consumer instance whose earlier Consume is still running.",
            "Run one Consume per instance at a time: wait for the running call to return, or register another instance for more parallelism."),
    SQL0002(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "LifecycleContextNotCancellable",
            "Consume was given a lifecycle that can never be cancelled, so a graceful shutdown could never start.",
            "None in the Java library: every session can be stopped, so it never raises this code; the number stays reserved. disableGracefulShutdown here means a stop without a drain."),
    SQL0003(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "LeaseLost",
            "Another consumer took over a lease before this one recorded its outcome, so this commit wrote nothing.",
            "No handling needed: the library absorbs it and the new owner settles the work. If it is frequent, handlers are outliving their lease; raise the timeout or queue margin."),
    SQL0004(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "StreamConfigMismatch",
            "A stream declaration asks for a partition size other than the one the stream was created with.",
            "Declare the stream's original partition size; it is fixed at creation, so a different size needs a new stream."),
    SQL0005(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "StreamNotFound",
            "No stream with the given name exists in this installation.",
            "Check the stream name and the configured schema, or register the stream before using it."),
    SQL0006(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "StreamNotEmpty",
            "A stream destroy without force was refused because the stream still holds messages.",
            "Destroy with force if its messages may be thrown away, otherwise leave the stream in place."),
    SQL0007(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "StreamNameTaken",
            "A stream cannot take the requested name because another stream already uses it.",
            "Choose a different name, or rename or destroy the stream that holds it first."),
    SQL0008(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "DestroyDisabled",
            "A destroy was attempted by a client whose configuration does not allow destroying anything.",
            "Enable AllowDestroy in the client configuration of the process meant to destroy resources (the CLI enables it on its own)."),
    SQL0009(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "ReservedStreamName",
            "The stream name begins with the __system. prefix, which belongs to the library's own streams.",
            "Pick a stream name outside the __system. namespace; consumer groups on system streams remain allowed."),
    SQL0010(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "SystemLive",
            "Destroying the installation was refused because some worker instance still holds a live claim.",
            "Stop every process that uses the installation, wait for their claims to lapse, then destroy again."),
    SQL0011(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "StreamsRegistered",
            "Destroying the installation without force was refused because streams are still registered in it.",
            "Destroy the streams first, or destroy the installation with force to remove them along with it."),
    SQL0012(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "InstanceLost",
            "A worker's instance row expired or was deleted before its heartbeat renewed it, so that instance has ended.",
            "Nothing to retry on the lost instance; the manager claims a fresh one. If it recurs, look for long pauses, slow database round trips or too short an InstanceTTL."),
    SQL0013(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "ScheduleNotFound",
            "No schedule with the given name exists.",
            "Check the schedule name, or register the schedule before operating on it."),
    SQL0014(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "ConsumerNotFound",
            "The consumer group, or its cursor, does not exist on the stream.",
            "Check the stream and group names, or register the group before consuming or inspecting it."),
    SQL0015(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "ConsumerGroupLive",
            "Destroying a consumer group was refused because one of its instances is still running.",
            "Stop the group's consumers first, or destroy with force; running instances then stop when their worker rows disappear."),
    SQL0016(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "ConsumerGroupDeliveriesPending",
            "Destroying a consumer group was refused because it still has delivery rows.",
            "Let the pending deliveries resolve, or destroy with force to discard them, dead rows included."),
    SQL0017(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "NotRegistered",
            "The installation in this schema has never been registered.",
            "Register the system, or any stream (which registers the system with defaults), before reading or migrating it."),
    SQL0018(Kind.ERROR, Level.ERROR, Recovery.TRANSIENT, "PartitionCreateFailed",
            "The partition that should hold a newly allocated message id could not be created.",
            "Retry the call; if it keeps failing, check the role's DDL rights, lock contention and the database log."),
    SQL0019(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "CommitConfirmationLost",
            "Outcomes were sent to the database but the commit's reply never arrived, so they may or may not be stored.",
            "Do not retry blindly; inspect the group's exception and delivery rows. Anything left unresolved is reclaimed once its lease expires."),
    SQL0020(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "StreamPartitionsRemain",
            "A stream destroy drained its partitions but some were still present afterwards.",
            "Stop every producer writing to the stream, then run the destroy again."),
    SQL0021(Kind.ERROR, Level.ERROR, Recovery.TRANSIENT, "StreamDeclarationIncomplete",
            "Registering a stream stopped part way, leaving some of its rows or tables missing.",
            "Run the stream's Register again; it is idempotent and completes what is missing."),
    SQL0022(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "SchemaOlderThanBuild",
            "The database's recorded migration version is lower than this library build requires.",
            "Migrate the database up to the version this build expects, then start the application again."),
    SQL0023(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "SchemaNewerThanBuild",
            "The database holds a migration step that needs a newer library build than this one.",
            "Deploy a library build that supports the database's migration version."),
    SQL0024(Kind.ERROR, Level.ERROR, Recovery.TRANSIENT, "WorkerDeclarationIncomplete",
            "Writing a worker's definition row did not complete.",
            "Repeat the registration that declares the worker; the definition is rewritten on every register."),
    SQL0025(Kind.ERROR, Level.ERROR, Recovery.TRANSIENT, "ScheduleDeclarationIncomplete",
            "Registering a schedule stopped part way.",
            "Run the schedule's Register again."),
    SQL0026(Kind.EVENT, Level.WARNING, Recovery.NONE, "LeaseReclaimed",
            "A range lease whose holder stopped renewing it expired and was taken over, so the range runs again.",
            "Look for a crashed or stalled consumer at that time. Handlers that already succeeded in the range run again, so keep them idempotent."),
    SQL0027(Kind.EVENT, Level.WARNING, Recovery.NONE, "RangeQuarantined",
            "A range was reclaimed MaxRangeReclaims times, so each of its messages became its own ready exception row.",
            "Find the message that keeps crashing or stalling its consumer among those rows; each now retries or dies on its own."),
    SQL0028(Kind.EVENT, Level.WARNING, Recovery.NONE, "RangeDeadLettered",
            "A range commit recorded one or more messages as dead; the line carries how many.",
            "Inspect the group's dead exception rows and their last errors; the payloads stay in the stream until retention removes them."),
    SQL0029(Kind.EVENT, Level.WARNING, Recovery.NONE, "MessageDeadLettered",
            "One message was dead-lettered for a consumer group.",
            "Look the message id up in the group's exception rows to see why it failed, then fix the handler or the data."),
    SQL0030(Kind.EVENT, Level.WARNING, Recovery.NONE, "ExceptionDeadLettered",
            "A retry from the exception queue ended dead, either out of retries or with a permanent error.",
            "Read the row's last error; raise the retry budget only if the failure is truly transient."),
    SQL0031(Kind.EVENT, Level.WARNING, Recovery.NONE, "CrashLoopKilled",
            "The kill backstop marked in-flight exception rows dead because their handlers kept dying without an outcome until the retry limit.",
            "Treat these as poison messages: find what crashes or hangs the process on them (see the rows marked killed)."),
    SQL0032(Kind.EVENT, Level.WARNING, Recovery.NONE, "OptionsClamped",
            "Delivery options stored on a message fell outside the group's minimum or maximum and were clamped.",
            "Align producer message options with the consumer group's bounds, or widen the bounds if the request is legitimate."),
    SQL0033(Kind.EVENT, Level.WARNING, Recovery.NONE, "PartitionCreateAheadFailed",
            "Creating the next partition in the background failed; the first insert beyond the boundary will create it instead.",
            "Usually harmless; if it repeats, check the role's DDL rights and lock contention on the stream."),
    SQL0034(Kind.EVENT, Level.WARNING, Recovery.NONE, "WorkerInstanceLost",
            "A worker's heartbeat found its instance row expired or gone, so that worker is stopping.",
            "The manager starts a replacement; if this recurs, look for process pauses or slow database round trips."),
    SQL0035(Kind.EVENT, Level.WARNING, Recovery.NONE, "ManagerSuspended",
            "The manager worker's target is zero, so no process reconciles any workers.",
            "Unsuspend the manager unless the whole installation is meant to be idle."),
    SQL0036(Kind.EVENT, Level.ERROR, Recovery.NONE, "WorkerBackoffExhausted",
            "A worker has failed long enough to exhaust its backoff curve; it keeps ticking at the longest delay.",
            "Read the worker's recent errors and fix the cause; it will not recover faster by itself."),
    SQL0037(Kind.EVENT, Level.WARNING, Recovery.NONE, "ScheduleReplayDeduplicated",
            "A schedule's due message had already been stored by an earlier commit with an unknown result, so the replay was dropped.",
            "No action; this is the idempotency key preventing a duplicate scheduled message."),
    SQL0038(Kind.EVENT, Level.WARNING, Recovery.NONE, "SlowProduce",
            "A produce call took longer than the producer's SlowProduceThreshold.",
            "Check database latency and lock waits; for closure produces, the caller's own work inside the closure is included."),
    SQL0039(Kind.EVENT, Level.WARNING, Recovery.NONE, "SlowDispatch",
            "Dispatching one delivery took longer than the consumer's SlowDispatchThreshold.",
            "Check what the handler waits on and whether all MessageConcurrency permits are busy."),
    SQL0040(Kind.EVENT, Level.WARNING, Recovery.NONE, "SlowWorkerTick",
            "One tick of a worker lasted longer than that worker's poll rate.",
            "Check the database load behind that worker, or give it a longer poll rate."),
    SQL0041(Kind.EVENT, Level.INFO, Recovery.NONE, "ConsumerStopped",
            "A consumer session ended; the line summarises its duration and outcome counters.",
            "None; compare the counters (dead, reclaimed, lease_lost, abandoned) with expectations."),
    SQL0042(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.claimed",
            "Counter of messages claimed by one consumer session ({message}, session scope).",
            "Its growth rate is the session's intake; compare it with success to spot failing or superseded work."),
    SQL0043(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.success",
            "Counter of deliveries that succeeded in one consumer session ({message}, session scope).",
            "Should track claimed closely; a gap shows how much work went to retries or dead rows."),
    SQL0044(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.superseded",
            "Counter of compacted messages skipped in one session because a newer message for their key arrived ({message}, session scope).",
            "High values are expected on busy compacted keys and mean work was saved, not lost."),
    SQL0045(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.ready",
            "Counter of deliveries in one session that left a ready exception row for a later retry or delay ({message}, session scope).",
            "A rising rate means handlers fail or delay often; check their errors."),
    SQL0046(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.deferred",
            "Counter of deliveries in one session deferred behind a busy key or an unresolved ordered predecessor ({message}, session scope).",
            "Frequent deferrals point at hot keys or slow handlers holding key leases."),
    SQL0047(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.dead",
            "Counter of messages one session dead-lettered ({message}, session scope).",
            "Any increase deserves a look at the group's dead rows."),
    SQL0048(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.reclaimed",
            "Counter of expired leases one session took over from other workers ({lease}, session scope).",
            "Nonzero values point at crashed or stalled consumers elsewhere in the group."),
    SQL0049(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.quarantined",
            "Counter of ranges one session split into single exception rows after too many reclaims ({range}, session scope).",
            "Any increase suggests a poison message that crashes its consumer."),
    SQL0050(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.abandoned",
            "Counter of handler routines one session left running past their timeout and grace ({routine}, session scope).",
            "Growth means handlers ignore cancellation; make them honour their timeout."),
    SQL0051(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.session.lease_lost",
            "Counter of commits in one session that found their lease already taken by another consumer ({commit}, session scope).",
            "Occasional values are harmless; steady growth means handlers outlast the lease budget."),
    SQL0052(Kind.EVENT, Level.WARNING, Recovery.NONE, "AbandonedEventsDropped",
            "Events about abandoned handler routines were dropped under load, so the abandoned-routine figures undercount.",
            "Treat those gauges as a lower bound and fix the handlers that ignore their timeout."),
    SQL0053(Kind.ERROR, Level.ERROR, Recovery.TRANSIENT, "StepLockTimeout",
            "A migration step kept running into its lock timeout because another session holds a conflicting lock.",
            "Let the blocking session named in the message finish, or end it, then run the migration again."),
    SQL0054(Kind.ERROR, Level.ERROR, Recovery.TRANSIENT, "Delay",
            "A handler asked for its message to be run again after a delay, without counting a failure.",
            "None; the message becomes eligible after the requested delay. Use MaxDelays to cap how often a message may be delayed."),
    SQL0055(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "Terminal",
            "A handler declared that its delivery can never succeed, so the message is dead-lettered at once.",
            "Read the dead row's last error for the cause and fix the data or the handler; the library will not retry it."),
    SQL0056(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "PartitionsCannotKeepUp",
            "New message ids kept outrunning the partitions this producer created to cover them.",
            "Find out why background partition creation fails (see SQL0033) and reduce the burst rate, or use a larger partition size for new streams."),
    SQL0057(Kind.EVENT, Level.WARNING, Recovery.NONE, "PartitionMissingOnInsert",
            "An insert found no partition for its id, so the producer created the partition and retried, paying extra latency.",
            "Occasional lines are fine; frequent ones mean create-ahead is not keeping up (see SQL0033)."),
    SQL0058(Kind.EVENT, Level.WARNING, Recovery.NONE, "ScheduleSuccessesUnlogged",
            "A schedule targets a stream whose delivery log does not record successes, so its status cannot count them.",
            "Set the target stream's DeliveryLogMode to all if schedule status and message outcomes matter."),
    SQL0059(Kind.EVENT, Level.WARNING, Recovery.NONE, "WorkerConfigReplaced",
            "A declaration changed the stored configuration of a consumer group's or a stream's workers; the line names each setting that changed, old -> new.",
            "Expected after a deliberate change; a line on every deploy means two services declare the group or stream differently."),
    SQL0060(Kind.EVENT, Level.WARNING, Recovery.NONE, "GroupConfigRefreshFailed",
            "Re-reading a consumer group's configuration failed, so the last copy in memory stays in use.",
            "Check database connectivity; configuration changes take effect once a refresh succeeds."),
    SQL0061(Kind.EVENT, Level.WARNING, Recovery.NONE, "StreamConfigReplaced",
            "A declaration changed a stream's stored configuration; the line shows old -> new.",
            "Expected after a deliberate change; repeated lines mean services disagree about the stream's declaration."),
    SQL0062(Kind.EVENT, Level.WARNING, Recovery.NONE, "ScheduleConfigReplaced",
            "A declaration changed a schedule's stored definition; the line shows old -> new.",
            "Expected after a deliberate change; repeated lines mean services disagree about the schedule."),
    SQL0063(Kind.EVENT, Level.WARNING, Recovery.NONE, "AlertConditionAtRegistration",
            "A built-in alert condition already holds when a stream, consumer or producer registers; nothing is published yet.",
            "Investigate the named condition now rather than waiting for the alert to fire."),
    SQL0064(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "SchemaCreateDenied",
            "The connecting database role may not create the library's schema and tables.",
            "Grant CREATE on the database to this role, or let a privileged role register the system once beforehand."),
    SQL0065(Kind.EVENT, Level.ERROR, Recovery.NONE, "SystemManagerStopped",
            "The system manager loop stopped; it tries to claim the manager again after a backoff.",
            "Read the error on the line; while it persists, maintenance workers are not reconciled from this process."),
    SQL0066(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "CompactionHeadNotFound",
            "No compacted message has ever been produced under the requested key.",
            "Check the stream and key; a head exists only after a compacted message is produced under that key."),
    SQL0067(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.worker.state.unclaimed_workers",
            "Gauge of workers whose target allows work but which no live instance holds ({worker}, system scope).",
            "Should be zero in steady state; a lasting value means no process runs those workers."),
    SQL0068(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.worker.state.oldest_unclaimed_age",
            "Gauge of how long the longest-unclaimed worker has gone without an instance (ms, system scope).",
            "Growth means maintenance is stalled; check that a manager is running."),
    SQL0069(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.worker.state.failing_workers",
            "Gauge of workers whose live instance is on a streak of failed ticks ({worker}, system scope).",
            "Nonzero values call for the failing workers' logs."),
    SQL0070(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.schedule.state.overdue",
            "Gauge of schedules past their due time without having produced ({found}, system scope).",
            "Should stay zero; otherwise check that the schedule producer is running."),
    SQL0071(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.schedule.state.oldest_due_age",
            "Gauge of how far the most overdue schedule is past its due time (ms, system scope).",
            "Values beyond about a minute mean schedules are not being produced."),
    SQL0072(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.schedule.state.suspended",
            "Gauge of schedules currently suspended ({found}, system scope).",
            "Compare with the schedules you meant to pause."),
    SQL0073(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.alert.state.active_alerts",
            "Gauge of recorded alerts whose status is active ({alert}, system scope).",
            "Nonzero means something needs attention; list the alerts to see which."),
    SQL0074(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.alert.state.resolved_alerts",
            "Gauge of recorded alerts whose status is resolved ({alert}, system scope).",
            "Informational; shows how many past alerts have cleared."),
    SQL0075(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.alert.check.streams_evaluated",
            "Gauge of streams the latest run of one alert check evaluated ({stream}, system scope, per alert).",
            "Read it with streams_failed to see how much of the installation the check actually covered."),
    SQL0076(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.alert.check.streams_failed",
            "Gauge of streams one alert check could not evaluate, for example for lack of evidence ({stream}, system scope, per alert).",
            "Nonzero means that alert cannot be trusted for those streams; check the metrics collector."),
    SQL0077(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.alert.check.published_alerts",
            "Gauge of alerts one alert check published on its latest run ({alert}, system scope, per alert).",
            "Nonzero means the check raised or repeated an alert; read the alert stream."),
    SQL0078(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.alert.check.resolved_alerts",
            "Gauge of alerts one alert check resolved on its latest run ({alert}, system scope, per alert).",
            "Informational; shows conditions that have recovered."),
    SQL0079(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.stream.state.compacted",
            "Gauge that is 1 once a stream has received a keyed compacted message and 0 before (no unit, stream scope).",
            "Tells which streams pay compaction costs on reads."),
    SQL0080(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.cursor.head",
            "Gauge of the newest message id on the stream as seen by one group ({message}, group scope).",
            "Compare with committed to see how far the group trails the stream."),
    SQL0081(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.cursor.claimed",
            "Gauge of a group's claimed cursor, the id up to which ranges have been handed out ({message}, group scope).",
            "Should advance while traffic flows; a stuck value means nothing is claiming."),
    SQL0082(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.cursor.committed",
            "Gauge of a group's committed cursor, below which every id is resolved ({message}, group scope).",
            "A stalled value means an open lease or unresolved exception is holding the group back."),
    SQL0083(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.cursor.backlog",
            "Gauge of ids beyond a group's committed cursor up to the head ({message}, group scope).",
            "The group's lag; it counts ids, so gaps and filtered messages are included."),
    SQL0084(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.cursor.inflight",
            "Gauge of ids a group has claimed but not yet committed ({message}, group scope).",
            "Large values mean claimed work is slow to resolve."),
    SQL0085(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.exceptions.ready",
            "Gauge of a group's exception rows waiting for a retry, delayed rows included ({exception}, group scope).",
            "A growing value means failures arrive faster than retries clear them."),
    SQL0086(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.exceptions.inflight",
            "Gauge of a group's exception rows currently being retried under a lease ({exception}, group scope).",
            "Should stay small; large values point at slow or stuck retries."),
    SQL0087(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.exceptions.deferred",
            "Gauge of a group's exception rows waiting for their key or ordered predecessor ({exception}, group scope).",
            "Growth points at a blocked key, often behind a failing ordered message."),
    SQL0088(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.exceptions.dead",
            "Gauge of a group's dead-lettered exception rows still retained ({exception}, group scope).",
            "Any increase needs triage; dead rows never hold the cursor back, so lag alone will not show them."),
    SQL0089(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.exceptions.oldest_unresolved_age",
            "Gauge of the age of a group's oldest exception row not yet resolved (ms, group scope).",
            "Steady growth means some message is stuck in retries or deferral."),
    SQL0090(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.open_leases",
            "Gauge of range leases a group currently holds open ({lease}, group scope).",
            "Roughly the work in flight; leases that stay open long block the committed cursor."),
    SQL0091(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.abandoned_routines.outstanding",
            "Gauge of abandoned handler routines in a group that are still running ({routine}, group scope).",
            "Nonzero means handlers ignore cancellation and may still hold resources."),
    SQL0092(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.abandoned_routines.total",
            "Gauge of all handler routines a group has abandoned so far ({routine}, group scope).",
            "Growth means handlers overrun their timeout and grace."),
    SQL0093(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.consumer.abandoned_routines.self_clear_latency_avg",
            "Gauge of the average time abandoned routines took to return on their own (ms, group scope).",
            "Shows how far handlers overrun; use it to size the timeout."),
    SQL0094(Kind.ALERT, Level.WARNING, Recovery.NONE, "partition_count",
            "A stream's message log has reached the partition-count threshold, by default half the lock ceiling Postgres reports.",
            "Shorten the stream's retention so old partitions get dropped, before dropping or destroying the stream needs more locks than the server allows."),
    SQL0095(Kind.ALERT, Level.WARNING, Recovery.NONE, "compaction_read_cost",
            "A compacted stream has so many partitions (10,000 by default) that reads of it become expensive.",
            "Shorten the stream's retention to cut its partition count, or move the data to a new stream with a larger partition size."),
    SQL0096(Kind.ALERT, Level.WARNING, Recovery.NONE, "worker_liveness",
            "A worker owned by a stream or one of its groups should run but no live instance holds it.",
            "Make sure a manager or consumer process for that stream is running and able to claim workers."),
    SQL0097(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "PayloadNotEncodable",
            "A message payload could not be serialized to JSON.",
            "Make the payload type serializable by JSON-B; the error never prints the value itself."),
    SQL0098(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.stream.state.partitions",
            "Gauge of partitions in a stream's message log, with its compaction status as metadata ({partition}, stream scope).",
            "Watch it against the partition_count and compaction_read_cost thresholds."),
    SQL0099(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.stream.workers.unclaimed",
            "Gauge of a stream's workers with no live instance, naming them in metadata ({worker}, stream scope).",
            "Nonzero means some of the stream's upkeep or consumption is not running; start a process that can claim the listed workers."),
    SQL0100(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.metrics.collector.completed_timestamp",
            "Gauge of when the metrics collector last finished a whole pass (s, Unix time, system scope).",
            "If it falls far behind now, collected metrics are stale; the metrics_collector_progress alert watches it."),
    SQL0101(Kind.ALERT, Level.WARNING, Recovery.NONE, "metrics_collector_progress",
            "The metrics collector has not completed a pass within MaximumAge although a manager was continuously live.",
            "Check the metrics collector's logs and whether its worker is claimed and failing."),
    SQL0102(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.otel.source.read_success",
            "Gauge that is 1 when the exporter's read of retained measurements succeeded in this collection and 0 when it failed (exporter scope, never stored).",
            "A 0 means the exported values are missing this round; check database reachability from the exporter."),
    SQL0103(Kind.METRIC, Level.OFF, Recovery.NONE, "sqlstreams.otel.measurements.rejected",
            "Gauge of measurements the exporter left out of this collection, absent when the read failed ({measurement}, exporter scope).",
            "Nonzero means some metric families were rejected; the matching SQL0104 lines name them."),
    SQL0104(Kind.EVENT, Level.WARNING, Recovery.NONE, "MetricFamilyRejected",
            "A metric family cannot be exported because its kind, unit, translated name or attribute keys conflict, or it uses a reserved name.",
            "Rename the custom metric or its attributes so it no longer clashes; other families keep exporting."),
    SQL0105(Kind.EVENT, Level.WARNING, Recovery.NONE, "InsufficientLeaseTime",
            "A queued message was not started because its range lease had too little time left; the range waits to be reclaimed.",
            "Give the queue more margin or claim smaller batches so queued messages still fit inside the lease."),
    SQL0106(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "WorkerNotFound",
            "The named worker has no definition row for its owner.",
            "Register the owning stream, group or system again so its workers are declared."),
    SQL0107(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "WorkerSuspended",
            "The worker is suspended (target instances zero), so a running execution of it must stop.",
            "Unsuspend the worker if it should run; otherwise the stop is intended."),
    SQL0108(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "InvalidConfiguration",
            "A declared or passed configuration value breaks a rule; the exception lists every violation found.",
            "Correct each value the exception names and retry."),
    SQL0109(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "InvalidName",
            "A stream, group, schema or key name does not follow the naming rules.",
            "Use a name that matches the rule the message states."),
    SQL0110(Kind.ERROR, Level.ERROR, Recovery.TRANSIENT, "DatabaseUnavailable",
            "PostgreSQL could not be reached, or a call kept failing transiently until the client's retry policy was spent.",
            "Check that the database is up and reachable from this process and that the pool has free connections; the call can be repeated."),
    SQL0111(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "DatabaseError",
            "PostgreSQL rejected a statement for a reason the library does not classify, such as a missing grant or exhausted disk.",
            "Read the SQL state and message of the cause and fix the database-side problem."),
    SQL0112(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "PayloadNotDecodable",
            "A stored message's JSON cannot be decoded into the requested payload type.",
            "Check that the payload class matches the message's schema version; a consumer dead-letters such a message."),
    SQL0113(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "SessionLoopExited",
            "A long-lived loop of a consume session (claim, dispatch, exception path, heartbeat, declaration refresh or cursor advance) ended without a requested stop: its thread was interrupted or the loop threw, so the session failed.",
            "Find what interrupted the thread or read the cause on the line; the server integration restarts the session, in Java SE start a new one."),
    SQL0114(Kind.EVENT, Level.WARNING, Recovery.NONE, "WorkerInstanceReclaimed",
            "A session's heartbeat found one of its instance rows expired or removed, as after a database outage longer than InstanceTTL, and claimed a fresh one; the session goes on.",
            "Nothing to do when it is rare; if it recurs, look for database outages, process pauses or too short an InstanceTTL."),
    SQL0115(Kind.EVENT, Level.INFO, Recovery.NONE, "ConsumerStarting",
            "A consume session has claimed its instance rows and starts its loops; the line names the group, the session id and the options it runs with.",
            "None; check that the options are the ones intended."),
    SQL0116(Kind.EVENT, Level.INFO, Recovery.NONE, "ConsumerGroupRegistered",
            "A consumer group was created on its stream; the line gives its start position and the committed cursor it begins at.",
            "None; if the group was not meant to be new, check the stream and group names."),
    SQL0117(Kind.EVENT, Level.INFO, Recovery.NONE, "BindingSetInstalled",
            "A consumer group's binding set was installed or replaced; the line gives the new patterns and those they replace.",
            "None; the group now receives only the messages whose keys match the new set."),
    SQL0118(Kind.EVENT, Level.WARNING, Recovery.NONE, "BindingSetWaiting",
            "A session declares a changed binding set while other instances of its group are live, so it waits before claiming and declares it again later.",
            "Expected during a rolling deploy; if it persists, stop the instances that still run the old binding set."),
    SQL0119(Kind.EVENT, Level.WARNING, Recovery.NONE, "ClaimFailed",
            "A session's claim of fresh messages failed; the claim loop tries again after its poll rate.",
            "Read the cause on the line; if it repeats, check that the database is reachable and not overloaded."),
    SQL0120(Kind.EVENT, Level.WARNING, Recovery.NONE, "ExceptionPassFailed",
            "A session's pass over its group's exception rows (retries, delays and deferrals) failed; the next pass follows after the poll rate.",
            "Read the cause on the line; if it repeats, check the database. Exception rows wait meanwhile, nothing is lost."),
    SQL0121(Kind.EVENT, Level.WARNING, Recovery.NONE, "DrainTimedOut",
            "Handlers of a stopping session were still running when its shutdown timeout ran out; their ranges are left to lease expiry and run again elsewhere.",
            "Make handlers return when interrupted, or raise ShutdownTimeout; keep them idempotent, as those messages run again."),
    SQL0122(Kind.EVENT, Level.WARNING, Recovery.NONE, "HandlerFinishedAfterStop",
            "A handler returned after its session had settled its ranges, so its outcome was not written and its range is reclaimed once the lease expires.",
            "Handlers outlive the shutdown: raise ShutdownTimeout or make them return when interrupted."),
    SQL0123(Kind.EVENT, Level.WARNING, Recovery.NONE, "RangeCommitFailed",
            "Writing the outcomes of a finished range failed; the session tries again when it stops, otherwise the range is reclaimed after its lease.",
            "Read the cause on the line; if it repeats, check the database. The range's messages may run again, so keep handlers idempotent."),
    SQL0124(Kind.EVENT, Level.WARNING, Recovery.NONE, "RangeSettleFailed",
            "When a session stopped, an open range's outcomes could not be written or handed back; the range is reclaimed after its lease.",
            "Check that the database was reachable at the stop; the range's messages run again on another session."),
    SQL0125(Kind.EVENT, Level.WARNING, Recovery.NONE, "HandlerAbandoned",
            "A handler did not return within its timeout plus TimeoutGrace, so its attempt was recorded as failed and its thread abandoned.",
            "Make the handler honour interruption or finish within its timeout; the abandoned thread may still hold resources (see SQL0091)."),
    SQL0126(Kind.EVENT, Level.WARNING, Recovery.NONE, "AbandonedHandlerReturned",
            "An abandoned handler returned at last, after its attempt had been recorded as failed, so what it did may overlap the message's retry.",
            "Keep handlers idempotent; if handlers routinely return this late, raise their timeout."),
    SQL0127(Kind.EVENT, Level.WARNING, Recovery.NONE, "KeyLeaseExpiredMidRun",
            "A key lease expired while its run was still going and another delivery took the key, so runs of that key may have overlapped.",
            "Give handlers a timeout that fits inside the key lease, or make them faster; keep keyed handlers idempotent."),
    SQL0128(Kind.EVENT, Level.WARNING, Recovery.NONE, "InstanceReleaseFailed",
            "A stopping session could not delete one of its worker instance rows; the row expires on its own after InstanceTTL and counts as live until then.",
            "Nothing to do unless it repeats; then check that the database is reachable when sessions stop."),
    SQL0129(Kind.EVENT, Level.DEBUG, Recovery.NONE, "TransientFailureRetried",
            "A database call failed transiently, such as a lost connection, a serialization failure or a deadlock, and is tried again under the client's retry policy.",
            "None while retries succeed; many such lines point at an unstable connection or contention, and SQL0110 follows when the retries run out."),
    SQL0130(Kind.EVENT, Level.DEBUG, Recovery.NONE, "CursorAdvanceFailed",
            "A periodic advance of a group's committed cursor failed; the next period tries again.",
            "None unless it persists; then the committed cursor stalls (see SQL0082) and the cause on the line says why."),
    SQL0131(Kind.EVENT, Level.INFO, Recovery.NONE, "ServerSessionsStarted",
            "The server integration started one session for each consumer group enabled on this server; the line counts them and names the disabled groups.",
            "None; check that every group meant to run here is counted."),
    SQL0132(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "TransactionRequired",
            "A call that must run inside the caller's transaction (producing into it, or locking a compaction head) was given a connection in auto-commit mode.",
            "Turn auto-commit off on the connection (or use one the server enlisted in its transaction) before the call, and commit it afterwards."),
    SQL0133(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "ObserverNotPayloadClass",
            "A @ConsumerGroup observer method observes a type that is not a class, such as a parameterized or wildcard type.",
            "Make the observed event parameter a payload class carrying @SchemaVersion."),
    SQL0134(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "PayloadWithoutSchemaVersion",
            "A payload class observed by a @ConsumerGroup observer or named by a @StreamName injection point carries no @SchemaVersion.",
            "Annotate the payload class with @SchemaVersion(n), n at least 1, and redeploy."),
    SQL0135(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "StreamInjectionUntyped",
            "A @StreamName injection point does not name its payload class, for example a raw Producer or a type other than Producer and StreamHandle.",
            "Inject Producer<Payload> or StreamHandle<Payload> with the payload class spelled out."),
    SQL0136(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "GroupObservedTwice",
            "Two observer methods observe the same consumer group on the same stream.",
            "Keep one observer per stream and group; give the other observer a group of its own."),
    SQL0137(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "DeploymentHasProblems",
            "The server integration was asked to start its sessions although the deployment reported problems when it was validated.",
            "Fix the problems the deployment listed, each under its own code, and deploy again."),
    SQL0138(Kind.ERROR, Level.ERROR, Recovery.PERMANENT, "ServerResourceMissing",
            "A server resource the deployment needs (the data source, the managed thread factory or a managed executor) is not bound under its JNDI name, or is of another type.",
            "Define the resource in the server under the configured JNDI name, or correct the setting that names it."),
    SQL0139(Kind.EVENT, Level.WARNING, Recovery.NONE, "MaintenanceStepFailed",
            "A step of a stream's maintenance failed within its timeout, retries included: a janitor step (dropping expired partitions, sweeping expired messages, idempotency claims, head-less compaction rows or key leases) or the vacuum of the idempotency claims; the line names the step and its coded cause, and the pass ran its other steps.",
            "The next pass tries again. If a step keeps failing, read the cause: a lock or statement timeout means long transactions hold the stream's tables (or the cleanup timeout is too short for the backlog), a permanent database error usually a missing grant."),
    SQL0140(Kind.EVENT, Level.INFO, Recovery.NONE, "WorkerStarted",
            "An instance of a worker (a stream's janitor or vacuum, or another worker kind) was claimed and starts its ticks; the line names the worker and its owner and reports the settings it runs with, read from the worker's row when it was claimed.",
            "None; a changed setting applies to instances claimed after the change, so restart the instance to apply it now."),
    SQL0141(Kind.EVENT, Level.WARNING, Recovery.NONE, "WorkerStartFailed",
            "The system manager, or a consumer group's session, could not start a runner for one of the workers it reconciles (its stored settings are malformed, or its row could not be read); the line names the worker and the cause.",
            "The next reconcile pass tries again. A malformed document is fixed by registering its owner (the stream or the group) again; a database failure usually passes.");

    /** Whether a code names an error, a log event, a metric or an alert. */
    public enum Kind { ERROR, EVENT, METRIC, ALERT }

    /** Whether an unchanged retry may succeed; {@code NONE} for anything that is not an error. */
    public enum Recovery { TRANSIENT, PERMANENT, NONE }

    private static final Code[] BY_NUMBER = values();
    private static final Pattern SPELLING = Pattern.compile("(?i)SQL([0-9]{4})|([0-9]{1,4})");

    private final Kind kind;
    private final Level level;
    private final Recovery recovery;
    private final String title;
    private final String meaning;
    private final String action;

    Code(Kind kind, Level level, Recovery recovery, String title, String meaning, String action) {
        this.kind = kind;
        this.level = level;
        this.recovery = recovery;
        this.title = title;
        this.meaning = meaning;
        this.action = action;
    }

    /** The code as written in logs and messages, for example {@code "SQL0059"}. */
    public String id() {
        return name();
    }

    /** The numeric part of the code, for example {@code 59}. */
    public int number() {
        return ordinal() + 1;
    }

    public Kind kind() {
        return kind;
    }

    /** The level its log line is written at; {@link Level#OFF} for metrics, which are never logged. */
    public Level level() {
        return level;
    }

    public Recovery recovery() {
        return recovery;
    }

    /** True when an unchanged retry of the failed call may succeed. */
    public boolean isTransient() {
        return recovery == Recovery.TRANSIENT;
    }

    /** Short identifier: the error name, event name, metric name or alert name. */
    public String title() {
        return title;
    }

    /** What the code means, in one line. */
    public String meaning() {
        return meaning;
    }

    /** What an operator or developer should do about it. */
    public String action() {
        return action;
    }

    /**
     * Looks a code up by {@code "SQL0059"} (any case), {@code "0059"} or {@code "59"}, ignoring
     * surrounding whitespace. Returns empty for anything else, including {@code null}.
     */
    public static Optional<Code> find(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher matcher = SPELLING.matcher(text.trim());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String digits = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
        int number = Integer.parseInt(digits);
        return number >= 1 && number <= BY_NUMBER.length ? Optional.of(BY_NUMBER[number - 1]) : Optional.empty();
    }
}
