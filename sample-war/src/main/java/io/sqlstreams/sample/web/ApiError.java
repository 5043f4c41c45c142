package io.sqlstreams.sample.web;

import java.util.List;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The JSON body of every error the API answers.
 *
 * @param error    what went wrong, in one sentence
 * @param problems each thing to correct, when there are several; empty otherwise
 */
public record ApiError(String error, List<String> problems) {

    public ApiError {
        problems = List.copyOf(problems);
    }

    public static Response response(Response.Status status, String error, List<String> problems) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(new ApiError(error, problems))
                .build();
    }
}
