package io.sqlstreams.cli;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.sqlstreams.InvalidConfigurationException;

/**
 * The {@code --metrics-address} of {@code manager run}: {@code HOST:PORT} ({@code 127.0.0.1:9464},
 * {@code [::1]:9464}, {@code metrics.internal:9464}) or {@code :PORT} for every interface. Anything else is
 * SQL0108.
 */
final class MetricsAddress {
    static final String OPTION = "--metrics-address";

    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9.\\-]*):([0-9]{1,5})");
    private static final int MAX_PORT = 65_535;

    private MetricsAddress() {
    }

    static InetSocketAddress parse(String text) {
        Matcher parts = HOST_PORT.matcher(text);
        if (!parts.matches()) {
            throw invalid(text, "must be HOST:PORT, such as 127.0.0.1:9464, or :PORT for every interface");
        }
        int port = Integer.parseInt(parts.group(2));
        if (port > MAX_PORT) {
            throw invalid(text, "the port must lie between 0 and " + MAX_PORT);
        }
        String host = parts.group(1).replace("[", "").replace("]", "");
        InetSocketAddress address = host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw invalid(text, "host " + host + " does not resolve");
        }
        return address;
    }

    static InvalidConfigurationException invalid(String text, String rule) {
        return new InvalidConfigurationException(List.of(new InvalidConfigurationException.Violation(OPTION, text,
                rule)));
    }
}
