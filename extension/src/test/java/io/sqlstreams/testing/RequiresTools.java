package io.sqlstreams.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test class needs these programs: without one of them the whole class is skipped before any of its set-up
 * runs, with a reason that names the program and how to install it (see {@link OptionalTool}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(RequiredToolsCondition.class)
public @interface RequiresTools {
    OptionalTool[] value();
}
