package io.sqlstreams.jakarta.config;

/** Where a property belongs: who sets it, and whether instances of one group may differ on it. */
enum Layer {
    /** What the group means; identical for every instance, so it ships with the application. */
    GROUP_DECLARATION("Group declaration",
            "What the group means, written to the group's rows at deployment (newest declaration wins, a differing"
                    + " one logs SQL0059). Every instance must agree, so set these in the application's"
                    + " `META-INF/microprofile-config.properties`."),
    /** How this box runs its session; may differ per box. */
    SESSION_OPTION("Session options",
            "How this box runs the group's session. Instances may differ, so set these per server: `server.xml`"
                    + " variables, environment variables or system properties."),
    /** Whether and where this box runs the group. */
    GROUP_RUNTIME("Group runtime",
            "Whether and on which threads this box runs the group. Per server, like session options."),
    /** Schedules the application declares. */
    SCHEDULE("Schedules",
            "A schedule the application declares: `sqlstreams.schedules.\"<name>\".<property>`, registered at"
                    + " deployment (newest declaration wins, a differing one logs SQL0062) and produced by the system"
                    + " manager once per due time. Its messages reach an ordinary `@ConsumerGroup` observer of the"
                    + " stream. Set these in the application's `META-INF/microprofile-config.properties`."),
    /** Application-wide, not per group. */
    GLOBAL("Global", "Shared by every group of the application; no `defaults` or group form.");

    private final String title;
    private final String summary;

    Layer(String title, String summary) {
        this.title = title;
        this.summary = summary;
    }

    String title() {
        return title;
    }

    String summary() {
        return summary;
    }
}
