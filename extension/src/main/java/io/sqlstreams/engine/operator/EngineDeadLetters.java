package io.sqlstreams.engine.operator;

import java.util.List;

import io.sqlstreams.Code;
import io.sqlstreams.DeadLetter;
import io.sqlstreams.DeadLetterErrors;
import io.sqlstreams.DeadLetterFilter;
import io.sqlstreams.DeadLetterPage;
import io.sqlstreams.DeadLettersHandle;
import io.sqlstreams.OperatorAction;
import io.sqlstreams.PageRequest;
import io.sqlstreams.engine.context.Engine;
import io.sqlstreams.engine.query.ExceptionQueries;
import io.sqlstreams.engine.query.OperatorQueries;

/**
 * The dead letters of one group. A redrive or discard first records its audit row (which fixes the action's start
 * by the database clock), then changes {@value #BATCH} rows per transaction, each batch counted into that row as it
 * commits, until a batch finds nothing left that was dead when the action began.
 */
public final class EngineDeadLetters implements DeadLettersHandle {
    static final int BATCH = 500;

    private final Engine engine;
    private final OperatorTarget target;
    private final OperatorQueries queries;

    public EngineDeadLetters(Engine engine, String stream, String group) {
        this.engine = engine;
        this.target = new OperatorTarget(engine, stream, group);
        this.queries = new OperatorQueries(engine.sql());
    }

    @Override
    public DeadLetterPage list(DeadLetterFilter filter, PageRequest page) {
        OperatorRequests.check(filter);
        OperatorRequests.check(page);
        target.checkNames();
        List<DeadLetter> oneMore = engine.database().autoCommit("listing the dead letters of " + target.describe(),
                connection -> queries.page(connection, target.resolve(connection), filter, page.beforeId(),
                        page.limit() + 1));
        if (oneMore.size() <= page.limit()) {
            return new DeadLetterPage(oneMore, null);
        }
        List<DeadLetter> letters = oneMore.subList(0, page.limit());
        return new DeadLetterPage(letters, letters.get(letters.size() - 1).messageId());
    }

    @Override
    public long count(DeadLetterFilter filter) {
        OperatorRequests.check(filter);
        target.checkNames();
        return engine.database().autoCommit("counting the dead letters of " + target.describe(),
                connection -> queries.count(connection, target.resolve(connection), filter));
    }

    @Override
    public List<DeadLetterErrors> errors(DeadLetterFilter filter, int limit) {
        OperatorRequests.check(filter);
        OperatorRequests.limit(limit);
        target.checkNames();
        return engine.database().autoCommit("grouping the dead letters of " + target.describe() + " by error",
                connection -> queries.errors(connection, target.resolve(connection), filter, limit));
    }

    @Override
    public OperatorAction redrive(DeadLetterFilter filter, String actor) {
        return resolve(filter, actor, OperatorAction.Kind.REDRIVE);
    }

    @Override
    public OperatorAction discard(DeadLetterFilter filter, String actor) {
        return resolve(filter, actor, OperatorAction.Kind.DISCARD);
    }

    private OperatorAction resolve(DeadLetterFilter filter, String actor, OperatorAction.Kind kind) {
        OperatorRequests.check(filter);
        String who = OperatorRequests.actor(actor, engine.declarer());
        target.checkNames();
        String verb = kind == OperatorAction.Kind.REDRIVE ? "redriving" : "discarding";
        Started started = engine.database().inTransaction(verb + " the dead letters of " + target.describe(),
                connection -> {
                    ExceptionQueries.Queue queue = target.resolve(connection);
                    return new Started(queue, queries.record(connection, queue.groupId(), kind, who,
                            OperatorRequests.json(filter)));
                });
        OperatorQueries.Batch batch = new OperatorQueries.Batch(started.action().id(),
                kind == OperatorAction.Kind.REDRIVE, started.action().at(), BATCH,
                kind.wireName() + " by " + who + " (operator action " + started.action().id() + ")");
        long changed;
        do {
            changed = engine.database().inTransaction(verb + " a batch of the dead letters of " + target.describe(),
                    connection -> queries.resolve(connection, started.queue(), filter, batch));
        } while (changed > 0);
        OperatorAction done = engine.database().autoCommit("reading operator action " + started.action().id(),
                connection -> queries.action(connection, started.action().id()));
        engine.diagnostics().event(kind == OperatorAction.Kind.REDRIVE ? Code.SQL0148 : Code.SQL0149,
                target.describe() + ": " + done.affected() + " dead letter(s) " + (kind == OperatorAction.Kind.REDRIVE ? "redriven" : "discarded") + " by " + who
                        + " with filter " + done.filterJson() + " (operator action " + done.id() + ")");
        return done;
    }

    private record Started(ExceptionQueries.Queue queue, OperatorAction action) {
    }
}
