package io.sqlstreams.engine.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** Idempotency key resolution (digest §2.6). */
class IdempotencyKeysTest {

    private static final UUID DNS_NAMESPACE = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");

    private static long embeddedMillis(UUID uuid) {
        return uuid.getMostSignificantBits() >>> 16;
    }

    @ParameterizedTest
    @NullAndEmptySource
    void anEmptyKeyIsNoneForTheBatchKeyToCover(String callerKey) {
        assertThat(IdempotencyKeys.resolve(callerKey)).isNull();
    }

    @Nested
    class Version7 {

        @Test
        void hasVersion7AndTheRfcVariant() {
            UUID uuid = IdempotencyKeys.mintV7();

            assertThat(uuid.version()).isEqualTo(7);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(uuid.toString().charAt(14)).isEqualTo('7');
            assertThat(uuid.toString().charAt(19)).isIn('8', '9', 'a', 'b');
        }

        @Test
        void embedsTheCurrentUnixMilliseconds() {
            long before = System.currentTimeMillis();
            UUID uuid = IdempotencyKeys.mintV7();
            long after = System.currentTimeMillis();

            assertThat(embeddedMillis(uuid)).isBetween(before - 1_000, after + 1_000);
        }

        @Test
        void consecutiveMintsAreStrictlyIncreasing() {
            UUID previous = IdempotencyKeys.mintV7();
            for (int i = 0; i < 10_000; i++) {
                UUID next = IdempotencyKeys.mintV7();
                assertThat(next.toString()).as("mint %d", i).isGreaterThan(previous.toString());
                previous = next;
            }
            assertThat(embeddedMillis(previous)).isLessThan(System.currentTimeMillis() + 1_000);
        }

        @Test
        void concurrentMintingYieldsNoDuplicates() throws Exception {
            int threads = 4;
            int perThread = 20_000;
            CountDownLatch start = new CountDownLatch(1);
            Callable<List<UUID>> minter = () -> {
                start.await();
                List<UUID> minted = new ArrayList<>(perThread);
                for (int i = 0; i < perThread; i++) {
                    minted.add(IdempotencyKeys.mintV7());
                }
                return minted;
            };
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<List<UUID>>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    results.add(pool.submit(minter));
                }
                start.countDown();
                Set<UUID> all = new HashSet<>();
                for (Future<List<UUID>> result : results) {
                    List<UUID> minted = result.get();
                    for (int i = 1; i < minted.size(); i++) {
                        assertThat(minted.get(i).toString()).isGreaterThan(minted.get(i - 1).toString());
                    }
                    all.addAll(minted);
                }
                assertThat(all).hasSize(threads * perThread);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    class Verbatim {

        @ParameterizedTest
        @ValueSource(strings = {
                "0190a6b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b",
                "b6f6c193-4e2b-45c1-9d3f-6a821e0c7a54",
                "00000000-0000-0000-0000-000000000000"})
        void aUuidIsUsedAsItIs(String text) {
            assertThat(IdempotencyKeys.resolve(text)).isEqualTo(UUID.fromString(text));
            assertThat(IdempotencyKeys.resolve(text).toString()).isEqualTo(text);
        }

        @Test
        void upperCaseIsTheSameUuid() {
            assertThat(IdempotencyKeys.resolve("0190A6B2-3C4D-7E5F-8A9B-0C1D2E3F4A5B"))
                    .isEqualTo(UUID.fromString("0190a6b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b"));
        }

        @ParameterizedTest
        @ValueSource(strings = {
                "1-2-3-4-5",
                "0190a6b23c4d7e5f8a9b0c1d2e3f4a5b",
                "{0190a6b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b}",
                " 0190a6b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b",
                "0190a6b2-3c4d-7e5f-8a9b-0c1d2e3f4a5g"})
        void textThatIsNotACanonicalUuidIsHashed(String text) {
            assertThat(IdempotencyKeys.resolve(text).version()).isEqualTo(5);
        }
    }

    @Nested
    class Version5 {

        private UUID expectedV5(UUID namespace, String name) throws Exception {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] namespaceBytes = ByteBuffer.allocate(16)
                    .putLong(namespace.getMostSignificantBits())
                    .putLong(namespace.getLeastSignificantBits())
                    .array();
            sha1.update(namespaceBytes);
            sha1.update(name.getBytes(StandardCharsets.UTF_8));
            byte[] hash = sha1.digest();
            hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
            hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
            ByteBuffer first16 = ByteBuffer.wrap(hash, 0, 16);
            return new UUID(first16.getLong(), first16.getLong());
        }

        @Test
        void isDeterministic() {
            assertThat(IdempotencyKeys.resolve("order-42")).isEqualTo(IdempotencyKeys.resolve("order-42"));
        }

        @Test
        void hasVersion5AndTheRfcVariant() {
            UUID uuid = IdempotencyKeys.resolve("order-42");

            assertThat(uuid.version()).isEqualTo(5);
            assertThat(uuid.variant()).isEqualTo(2);
        }

        @Test
        void differentTextGivesDifferentKeys() {
            assertThat(IdempotencyKeys.resolve("order-42")).isNotEqualTo(IdempotencyKeys.resolve("order-43"));
            assertThat(IdempotencyKeys.resolve("a")).isNotEqualTo(IdempotencyKeys.resolve("A"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"order-42", "Grüße, 世界 🌍", " "})
        void matchesAnIndependentComputationUnderTheFixedNamespace(String name) throws Exception {
            UUID namespace = UUID.fromString("b6f6c193-4e2b-45c1-9d3f-6a821e0c7a54");

            assertThat(IdempotencyKeys.resolve(name)).isEqualTo(expectedV5(namespace, name));
        }

        @Test
        void matchesTheRfcExample() throws Exception {
            UUID expected = UUID.fromString("2ed6657d-e927-568b-95e1-2665a8aea6a2");

            assertThat(IdempotencyKeys.v5(DNS_NAMESPACE, "www.example.com")).isEqualTo(expected);
            assertThat(expectedV5(DNS_NAMESPACE, "www.example.com")).isEqualTo(expected);
        }
    }
}
