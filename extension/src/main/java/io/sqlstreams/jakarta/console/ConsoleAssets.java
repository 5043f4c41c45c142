package io.sqlstreams.jakarta.console;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/** The console page's three files, served from the extension's own resources; nothing else is. */
final class ConsoleAssets {
    private static final Map<String, String> TYPES = Map.of(
            "/", "text/html; charset=UTF-8",
            "/console.js", "text/javascript; charset=UTF-8",
            "/console.css", "text/css; charset=UTF-8");

    private ConsoleAssets() {
    }

    /** Writes the file at {@code path}; false when the console has none there. */
    static boolean serve(String path, HttpServletResponse response) throws IOException {
        String type = TYPES.get(path);
        if (type == null) {
            return false;
        }
        String resource = path.equals("/") ? "index.html" : path.substring(1);
        try (InputStream file = ConsoleAssets.class.getResourceAsStream(resource)) {
            if (file == null) {
                throw new IOException("the extension lacks its console resource " + resource);
            }
            response.setContentType(type);
            response.setHeader("Cache-Control", "no-cache");
            file.transferTo(response.getOutputStream());
        }
        return true;
    }
}
