package io.sqlstreams.engine.context;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.engine.Diagnostics;
import io.sqlstreams.engine.EngineEnvironment;
import io.sqlstreams.engine.RunningSessions;
import io.sqlstreams.engine.SessionCounterStore;
import io.sqlstreams.engine.binding.BindingDeclaration;
import io.sqlstreams.engine.codec.PayloadCodec;
import io.sqlstreams.engine.schema.SchemaMigrator;
import io.sqlstreams.engine.sql.Database;
import io.sqlstreams.engine.sql.Sql;
import io.sqlstreams.engine.telemetry.Telemetry;
import io.sqlstreams.engine.wakeup.Wakeups;

/**
 * What every part of one client shares: its configuration, database access, rendered SQL, migrations,
 * diagnostics, payload codec, host environment, the identity it declares rows with, its binding declarer,
 * the sessions it runs, its wake-up on produce, where its sessions record their counters, and its telemetry.
 */
public record Engine(ClientConfig config, Database database, Sql sql, SchemaMigrator migrator,
                     Diagnostics diagnostics, PayloadCodec codec, EngineEnvironment environment, String declarer,
                     BindingDeclaration bindings, RunningSessions sessions,
                     Wakeups wakeups, SessionCounterStore sessionCounters, Telemetry telemetry) {
}
