package io.sqlstreams.bench;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The {@code chaos} scenario's flags; every one is optional and the scenario picks its defaults (smoke or not).
 *
 * @param consumers      {@code --consumers}: consumer processes running at once
 * @param rate           {@code --rate}: messages produced per second
 * @param kills          {@code --kills}: consumer processes SIGKILLed during the fault window
 * @param storms         {@code --storms}: backend termination storms during the fault window
 * @param restarts       {@code --restarts}: PostgreSQL restarts during the fault window
 * @param seed           {@code --seed}: the seed of the message mix and the fault schedule
 * @param restartCommand {@code --pg-restart-command}: for a server given by {@code --jdbc-url}, the shell command
 *                       that restarts it; without one a given server is never restarted
 * @param handler        {@code --handler}: how the consumers handle a message ({@link HandlerMode#PLAIN} unless told)
 * @param fenceHolders   {@code --fence-holders on|off}: whether held producers and unrelated transactions hold
 *                       transaction ids during the run ({@link FenceHolders}; on unless told)
 */
record ChaosOptions(OptionalInt consumers, OptionalInt rate, OptionalInt kills, OptionalInt storms,
                    OptionalInt restarts, OptionalLong seed, Optional<String> restartCommand, HandlerMode handler,
                    boolean fenceHolders) {

    static final List<String> FLAGS = List.of("--consumers", "--rate", "--kills", "--storms", "--restarts",
            "--seed", "--pg-restart-command", "--handler", "--fence-holders");

    static ChaosOptions none() {
        return new ChaosOptions(OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty(),
                OptionalInt.empty(), OptionalLong.empty(), Optional.empty(), HandlerMode.PLAIN, true);
    }

    /** These options with {@code flag} (one of {@link #FLAGS}) set to {@code value}. */
    ChaosOptions with(String flag, String value) throws BenchOptions.UsageException {
        return switch (flag) {
            case "--consumers" -> new ChaosOptions(OptionalInt.of(BenchOptions.positiveInt(value, flag)), rate,
                    kills, storms, restarts, seed, restartCommand, handler, fenceHolders);
            case "--rate" -> new ChaosOptions(consumers, OptionalInt.of(BenchOptions.positiveInt(value, flag)),
                    kills, storms, restarts, seed, restartCommand, handler, fenceHolders);
            case "--kills" -> new ChaosOptions(consumers, rate, OptionalInt.of(BenchOptions.count(value, flag)), storms,
                    restarts, seed, restartCommand, handler, fenceHolders);
            case "--storms" -> new ChaosOptions(consumers, rate, kills, OptionalInt.of(BenchOptions.count(value, flag)),
                    restarts, seed, restartCommand, handler, fenceHolders);
            case "--restarts" -> new ChaosOptions(consumers, rate, kills, storms,
                    OptionalInt.of(BenchOptions.count(value, flag)), seed, restartCommand, handler, fenceHolders);
            case "--seed" -> new ChaosOptions(consumers, rate, kills, storms, restarts,
                    OptionalLong.of(seed(value, flag)), restartCommand, handler, fenceHolders);
            case "--pg-restart-command" -> new ChaosOptions(consumers, rate, kills, storms, restarts, seed,
                    Optional.of(command(value, flag)), handler, fenceHolders);
            case "--handler" -> new ChaosOptions(consumers, rate, kills, storms, restarts, seed, restartCommand,
                    HandlerMode.parse(value, flag), fenceHolders);
            case "--fence-holders" -> new ChaosOptions(consumers, rate, kills, storms, restarts, seed, restartCommand,
                    handler, onOrOff(value, flag));
            default -> throw new IllegalArgumentException("not a chaos flag: " + flag);
        };
    }

    private static long seed(String text, String flag) throws BenchOptions.UsageException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new BenchOptions.UsageException(flag + " needs a whole number, not " + text);
        }
    }

    private static boolean onOrOff(String text, String flag) throws BenchOptions.UsageException {
        return switch (text) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new BenchOptions.UsageException(flag + " needs on or off, not " + text);
        };
    }

    private static String command(String text, String flag) throws BenchOptions.UsageException {
        if (text.isBlank()) {
            throw new BenchOptions.UsageException(flag + " needs a command");
        }
        return text;
    }
}
