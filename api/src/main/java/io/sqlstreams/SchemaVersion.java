package io.sqlstreams;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The payload version a class is stored as, at least 1. Every payload type must carry it. A consumer group
 * reads only rows of its own type's version; rows of other versions are passed over without decoding. A
 * higher version always wins a compaction head, whatever its rank.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SchemaVersion {
    int value();
}
