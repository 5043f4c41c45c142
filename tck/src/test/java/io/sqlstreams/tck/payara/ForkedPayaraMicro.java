package io.sqlstreams.tck.payara;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.sqlstreams.tck.ForkedServer;

/**
 * Payara Micro started with {@code java -jar} as the suite's adapter starts it (the same jar, options and heap, from
 * the system properties failsafe sets), with the application given by {@code --deploy}.
 */
final class ForkedPayaraMicro extends ForkedServer {
    private static final String NAME = "forked";

    @Override
    protected Path applicationDirectory() {
        return PayaraMicro.logs().resolveSibling("applications");
    }

    @Override
    protected ProcessBuilder command(Path application) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(PayaraMicro.words("sqlstreams.tck.payara.jvm"));
        command.addAll(List.of("-jar", PayaraMicro.required("sqlstreams.tck.payara.jar"), "--nocluster"));
        command.addAll(PayaraMicro.words("sqlstreams.tck.payara.options"));
        command.addAll(List.of("--logtofile", PayaraMicro.logOption(NAME).toString(),
                "--deploy", application.toString()));
        return new ProcessBuilder(command);
    }

    @Override
    protected Path consoleLog() {
        return PayaraMicro.logs().resolve(NAME + "-console.log");
    }
}
