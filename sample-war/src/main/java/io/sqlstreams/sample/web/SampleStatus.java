package io.sqlstreams.sample.web;

import java.util.List;

/** Every consumer group of the sample's two streams: payment requests, then charged payments. */
public record SampleStatus(List<GroupStatus> groups) {
}
