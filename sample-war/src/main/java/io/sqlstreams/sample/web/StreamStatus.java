package io.sqlstreams.sample.web;

import java.util.List;

/** The payments stream and every consumer group registered on it, by name. */
public record StreamStatus(String stream, List<GroupStatus> groups) {
}
