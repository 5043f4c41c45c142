package io.sqlstreams.spi;

import javax.sql.DataSource;

import io.sqlstreams.ClientConfig;
import io.sqlstreams.SqlStreams;

/** Found through {@link java.util.ServiceLoader} by {@link SqlStreams#create}: the implementation's entry point. */
public interface SqlStreamsProvider {
    SqlStreams create(DataSource dataSource, ClientConfig config);
}
