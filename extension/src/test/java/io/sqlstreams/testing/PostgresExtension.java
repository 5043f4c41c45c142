package io.sqlstreams.testing;

import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Gives each test class a fresh schema on the test PostgreSQL; see {@link PostgresTest}. */
public final class PostgresExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PostgresExtension.class);
    private static final int MAX_CLASS_PART = 40;

    @Override
    public void beforeAll(ExtensionContext context) throws SQLException {
        TestDatabase database = new TestDatabase(TestPostgres.dataSource(), schemaFor(context.getRequiredTestClass()));
        database.execute("CREATE SCHEMA " + database.schema());
        context.getStore(NAMESPACE).put(TestDatabase.class, database);
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
        TestDatabase database = context.getStore(NAMESPACE).remove(TestDatabase.class, TestDatabase.class);
        if (database != null) {
            database.dropSchemas();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestDatabase.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TestDatabase database = context.getStore(NAMESPACE).get(TestDatabase.class, TestDatabase.class);
        if (database == null) {
            throw new IllegalStateException("TestDatabase is available only in @PostgresTest classes");
        }
        return database;
    }

    /** {@code t_<class name in snake case>_<random>}: unique per run, and a valid installation schema name. */
    static String schemaFor(Class<?> testClass) {
        String snake = testClass.getSimpleName().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9_]", "_");
        if (snake.length() > MAX_CLASS_PART) {
            snake = snake.substring(0, MAX_CLASS_PART);
        }
        return "t_" + snake + "_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41), 36);
    }
}
