package io.sqlstreams.sample.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The sample's REST resources, under {@code /api}. */
@ApplicationPath("api")
public class PaymentsApplication extends Application {
}
