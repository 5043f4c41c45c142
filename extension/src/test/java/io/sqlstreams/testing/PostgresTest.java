package io.sqlstreams.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs against a real PostgreSQL ({@link TestPostgres}) in a schema of its own, created
 * before the class and dropped after it. Test methods and lifecycle methods receive it as a
 * {@link TestDatabase} parameter.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(PostgresExtension.class)
public @interface PostgresTest {
}
