package io.sqlstreams.sample.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.sqlstreams.sample.orders.InvalidOrderException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

/**
 * The body of {@code POST /api/orders} as text: at most {@value #MAX_BYTES} bytes of UTF-8. A larger body answers
 * 413 after reading one byte past the limit (or none, when its {@code Content-Length} says so), never whole.
 */
final class OrderBody {
    static final int MAX_BYTES = 16 * 1024;

    private OrderBody() {
    }

    static String read(InputStream body, Long contentLength) {
        if (contentLength != null && contentLength > MAX_BYTES) {
            throw tooLarge();
        }
        byte[] bytes;
        try {
            bytes = body.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the request body", e);
        }
        if (bytes.length > MAX_BYTES) {
            throw tooLarge();
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException notUtf8) {
            throw new InvalidOrderException(List.of("the body is not UTF-8 text"));
        }
    }

    private static WebApplicationException tooLarge() {
        return new WebApplicationException(ApiError.response(Response.Status.REQUEST_ENTITY_TOO_LARGE,
                "the body is larger than " + MAX_BYTES + " bytes", List.of()));
    }
}
