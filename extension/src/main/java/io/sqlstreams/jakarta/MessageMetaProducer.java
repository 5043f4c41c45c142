package io.sqlstreams.jakarta;

import io.sqlstreams.MessageMeta;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;

/** Lets an observer method take the delivery's {@link MessageMeta} as an extra parameter. */
@Dependent
public class MessageMetaProducer {

    @Produces
    @Dependent
    MessageMeta current() {
        return MessageMeta.current();
    }
}
