package io.sqlstreams.jakarta;

import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.List;

import javax.sql.DataSource;

import io.sqlstreams.Code;
import io.sqlstreams.ConsumerGroup;
import io.sqlstreams.SchemaVersion;
import io.sqlstreams.SqlStreamsException;
import io.sqlstreams.StreamName;
import io.sqlstreams.engine.Names;
import io.sqlstreams.jakarta.messaging.StreamConnector;
import io.sqlstreams.jakarta.config.GlobalSettings;
import io.sqlstreams.jakarta.config.GroupAddress;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.enterprise.inject.spi.ProcessInjectionPoint;
import jakarta.enterprise.inject.spi.ProcessObserverMethod;
import jakarta.transaction.Transactional;

/**
 * The portable extension: finds every {@code @ConsumerGroup} observer method, checks every {@code @StreamName}
 * injection point, and at deployment validation resolves each group's settings from MicroProfile Config and, with
 * a {@code @Transactional} observer, checks that its writes can share one transaction with the library's
 * ({@link SharedTransactionCheck}), reporting every problem at once with its code. The observers are never fired through the event bus:
 * {@link SqlStreamsRuntime} runs one session per group that notifies exactly its observer.
 */
public class SqlStreamsExtension implements Extension {
    private final Discovery discovery = new Discovery();

    void addBeans(@Observes BeforeBeanDiscovery event, BeanManager beans) {
        for (Class<?> type : List.of(SqlStreamsRuntime.class, JndiContainerResources.class,
                MessageMetaProducer.class, StreamProducers.class, SqlStreamsLiveness.class,
                SqlStreamsReadiness.class, SqlStreamsStartup.class)) {
            event.addAnnotatedType(beans.createAnnotatedType(type), SqlStreamsExtension.class.getName() + "."
                    + type.getSimpleName());
        }
        if (reactiveMessagingVisible()) {
            event.addAnnotatedType(beans.createAnnotatedType(StreamConnector.class),
                    SqlStreamsExtension.class.getName() + "." + StreamConnector.class.getSimpleName());
        }
    }

    /** Whether the application sees the Reactive Messaging API (Open Liberty's mpReactiveMessaging-3.0 feature). */
    private static boolean reactiveMessagingVisible() {
        try {
            Class.forName("org.eclipse.microprofile.reactive.messaging.spi.IncomingConnectorFactory", false,
                    SqlStreamsExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }

    <T, X> void findGroup(@Observes ProcessObserverMethod<T, X> event) {
        ConsumerGroup group = consumerGroup(event.getObserverMethod().getObservedQualifiers());
        if (group == null) {
            return;
        }
        Type observedType = event.getObserverMethod().getObservedType();
        GroupAddress address = new GroupAddress(group.stream(), group.group());
        if (!(observedType instanceof Class<?> payload)) {
            discovery.problem(Code.SQL0133.id() + " the observer of group \"" + group.group() + "\" on stream \""
                    + group.stream() + "\" observes " + observedType.getTypeName() + "; a consumer group observes a"
                    + " payload class");
            return;
        }
        Transactional declared = transactional(event.getAnnotatedMethod());
        ObservedGroup found = new ObservedGroup(address, event.getObserverMethod(), payload, declared != null);
        Transactional.TxType type = declared == null ? null : declared.value();
        if (type == Transactional.TxType.REQUIRES_NEW || type == Transactional.TxType.NOT_SUPPORTED
                || type == Transactional.TxType.NEVER) {
            discovery.problem(Code.SQL0158.id() + " the observer of " + found.describe() + " is @Transactional("
                    + type + "), which runs it outside the transaction its message's outcome commits in; use REQUIRED,"
                    + " MANDATORY or SUPPORTS");
        }
        if (!payload.isAnnotationPresent(SchemaVersion.class)) {
            discovery.problem(Code.SQL0134.id() + " payload " + payload.getName() + " of " + found.describe()
                    + " has no @SchemaVersion");
        }
        discovery.found(found);
    }

    <T, X> void checkStreamInjection(@Observes ProcessInjectionPoint<T, X> event) {
        InjectionPoint point = event.getInjectionPoint();
        if (point.getQualifiers().stream().noneMatch(StreamName.class::isInstance)) {
            return;
        }
        String where = point.getMember().getDeclaringClass().getName() + "." + point.getMember().getName();
        String stream = StreamProducers.streamName(point);
        try {
            Names.resource("stream", stream);
        } catch (SqlStreamsException invalid) {
            discovery.problem(invalid.getMessage() + " (at " + where + ")");
        }
        Class<?> payload = StreamProducers.payloadClass(point.getType());
        if (payload == null) {
            discovery.problem(Code.SQL0135.id() + " " + where + " injects " + point.getType().getTypeName()
                    + " of stream \"" + stream + "\"; name the payload class: Producer<Payload> or"
                    + " StreamHandle<Payload>");
        } else if (!payload.isAnnotationPresent(SchemaVersion.class)) {
            discovery.problem(Code.SQL0134.id() + " payload " + payload.getName() + " of stream \"" + stream
                    + "\" injected at " + where + " has no @SchemaVersion");
        }
    }

    void addDiscovery(@Observes AfterBeanDiscovery event) {
        event.addBean().types(Discovery.class, Object.class).createWith(context -> discovery);
    }

    void validate(@Observes AfterDeploymentValidation validation, BeanManager beans) {
        discovery.settings();
        if (discovery.problems().isEmpty() && discovery.groups().stream().anyMatch(ObservedGroup::transactional)) {
            checkSharedTransactions(beans.createInstance().select(ContainerResources.class).get());
        }
        discovery.problems().forEach(problem -> validation.addDeploymentProblem(new DeploymentException(problem)));
    }

    /** Transactional observers only deploy where their writes and the outcome rows share one transaction. */
    private void checkSharedTransactions(ContainerResources resources) {
        GlobalSettings global = discovery.settings().global();
        String name = global.dataSourceJndiName();
        try {
            DataSource dataSource = resources.dataSource(name);
            new SharedTransactionCheck(resources.transactions(dataSource), dataSource, name, global.schema())
                    .verify(Thread.currentThread().getContextClassLoader(), resources::dataSource);
        } catch (IllegalStateException missing) {
            discovery.problem(Code.SQL0138.id() + " sqlstreams.datasource: " + missing.getMessage());
        } catch (SqlStreamsException refused) {
            discovery.problem(refused.getMessage());
        }
    }

    /** The observer method's {@code @Transactional}, else its class's; null when neither has one. */
    private static Transactional transactional(AnnotatedMethod<?> method) {
        Transactional own = method.getAnnotation(Transactional.class);
        return own != null ? own : method.getDeclaringType().getAnnotation(Transactional.class);
    }

    private static ConsumerGroup consumerGroup(Iterable<Annotation> qualifiers) {
        for (Annotation qualifier : qualifiers) {
            if (qualifier instanceof ConsumerGroup group) {
                return group;
            }
        }
        return null;
    }
}
