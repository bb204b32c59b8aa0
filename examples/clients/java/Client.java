// Relay location client: Java 17 on java.net.http, no other dependency. Run: java Client.java
//
// Reports one visit's payment to the relay service using the flow named by RELAY_FLOW (advanced |
// simple). Inputs come from the RELAY_* environment variables set by `relay-mock conform`; the
// outcome goes to RELAY_RESULT_FILE. Exit status is 0 whatever the service answers: the customer's
// payment completes even when the owner is unknown or the service refuses. Only a missing or invalid
// configuration (a runner bug) exits 2.
//
// When the service fails (docs/http-libraries.md, "Java"): every request gives up after
// RELAY_REQUEST_TIMEOUT_MS; a 503 or 429 is sent again once its Retry-After has passed (seconds or an
// HTTP-date; longer than 10 s: give up); a lookup (GET) also after no answer, its own timeout or an
// unreadable 2xx (at once) and after a 5xx (0.6 s later); 3 attempts in all. A POST whose answer
// was lost (no answer, a timeout, 500/502/504, a cut-off or non-JSON 2xx) may have been recorded, so
// it is never sent again blind: the vehicle is looked up first, and a payment is reported `unknown`.
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class Client {
    static final int MAX_ATTEMPTS = 3;
    static final long BACKOFF_MS = 600; // before a retry after a 5xx that named no Retry-After: at least 500 ms
    static final long MAX_RETRY_AFTER_MS = 10_000; // a longer wait keeps the customer standing there

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            System.err.println(name + " is not set");
            System.exit(2);
        }
        return value;
    }

    static {
        // java.net.http sends a GET again on its own, at once, when a kept-alive connection drops before
        // the answer: each attempt here would be two at the service. One send per attempt, the retries below.
        System.setProperty("jdk.httpclient.redirects.retrylimit", "1");
        System.setProperty("jdk.httpclient.disableRetryConnect", "true");
    }

    static final String BASE_URL = env("RELAY_BASE_URL").replaceAll("/+$", "");
    static final String TOKEN = env("RELAY_API_TOKEN");
    static final Duration TIMEOUT = Duration.ofMillis(timeoutMs());
    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1) // no h2c upgrade: the service speaks HTTP/1.1
            .connectTimeout(TIMEOUT)
            .build();

    static long timeoutMs() {
        String value = System.getenv("RELAY_REQUEST_TIMEOUT_MS");
        try {
            long ms = value == null || value.isEmpty() ? 5000 : Long.parseLong(value);
            if (ms > 0) return ms;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        System.err.println("RELAY_REQUEST_TIMEOUT_MS must be a positive whole number of milliseconds");
        System.exit(2);
        return 0;
    }

    /** What one request came to: a status and a body the client could read, or none (lost, with why). */
    record Answer(int status, Object body, String lost, long retryAfterMs) {
        boolean ok() { return lost == null && status >= 200 && status < 300; }
        /** The service may have done the request: no readable answer, or a 500, 502 or 504. */
        boolean ambiguous() { return lost != null || status == 500 || status == 502 || status == 504; }
        String said() {
            if (lost != null) return lost;
            String message = messageOf(body);
            return "HTTP " + status + (message == null ? "" : ": " + message);
        }
    }

    static Answer lost(String why) { return new Answer(0, null, why, -1); }

    /** One attempt. A 2xx whose body is cut off or not JSON tells the client nothing: as good as no answer. */
    static Answer attempt(String method, String path, Object body) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(BASE_URL + path))
                .timeout(TIMEOUT)
                .header("Authorization", "Bearer " + TOKEN);
        if (body == null) request.GET();
        else request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(body)));
        HttpResponse<String> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            return lost("no answer within " + TIMEOUT.toMillis() + " ms");
        } catch (IOException e) {
            return lost("the connection failed or the answer was cut off (" + e + ")");
        }
        int status = response.statusCode();
        long retryAfter = response.headers().firstValue("Retry-After").map(Client::retryAfterMs).orElse(-1L);
        String text = response.body();
        try {
            return new Answer(status, text.isBlank() ? null : Json.parse(text), null, retryAfter);
        } catch (IllegalArgumentException e) {
            if (status >= 200 && status < 300) return lost("HTTP " + status + " with a body that is not JSON");
            return new Answer(status, null, null, retryAfter); // an error page: the status still says what happened
        }
    }

    /** Retry-After in ms: seconds, or an HTTP-date from now; -1 when unreadable. */
    static long retryAfterMs(String value) {
        String text = value.trim();
        if (text.matches("\\d+")) return Long.parseLong(text) * 1000;
        try {
            return Math.max(0, ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli() - System.currentTimeMillis());
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * One request, with its retries: the wait before the next attempt, or -1 to stop. A POST goes again only
     * where the answer says nothing was done (408, 429, 503); a GET also after no answer or a 5xx.
     */
    static long waitBeforeRetry(String method, Answer answer) {
        if (answer.lost == null && (answer.status == 429 || answer.status == 503)) {
            long after = answer.retryAfterMs >= 0 ? answer.retryAfterMs : BACKOFF_MS;
            return after > MAX_RETRY_AFTER_MS ? -1 : after + 100; // a little past it: clocks differ
        }
        if (answer.lost == null && answer.status == 408) return BACKOFF_MS;
        if (!method.equals("GET")) return -1;
        if (answer.lost != null) return 0;
        if (answer.status >= 500) return BACKOFF_MS;
        return -1;
    }

    static Answer call(String method, String path, Object body) throws InterruptedException {
        Answer answer = attempt(method, path, body);
        for (int attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
            long wait = waitBeforeRetry(method, answer);
            if (wait < 0) break;
            System.err.println("  retrying " + method + " " + path + " in " + wait + " ms after: " + answer.said());
            Thread.sleep(wait);
            answer = attempt(method, path, body);
        }
        System.err.println(method + " " + path + " -> " + (answer.lost != null ? answer.lost : answer.status));
        return answer;
    }

    /** Ends the flow with an outcome. */
    static final class Finished extends Exception {
        private static final long serialVersionUID = 1L;
        final Map<String, Object> result = new LinkedHashMap<>();
        Finished(String outcome, String paymentId, String message) {
            super(outcome, null, false, false);
            result.put("outcome", outcome);
            if (paymentId != null) result.put("paymentId", paymentId);
            if (message != null) result.put("message", message);
        }
    }

    static String idOf(Object value) {
        Object id = value instanceof Map<?, ?> map ? map.get("id") : null;
        return id == null || id.toString().isEmpty() ? null : id instanceof Double d && d == Math.rint(d) ? String.valueOf(d.longValue()) : id.toString();
    }

    static String messageOf(Object value) {
        Object message = value instanceof Map<?, ?> map ? map.get("message") : null;
        return message instanceof String text && !text.isEmpty() ? text : null;
    }

    static void require2xx(String what, Answer answer) throws Finished {
        if (!answer.ok()) throw new Finished("rejected", null, what + " failed: " + answer.said());
    }

    static List<?> requireList(String what, Answer answer) throws Finished {
        if (answer.body instanceof List<?> list) return list;
        throw new Finished("rejected", null, what + ": the answer is not a list");
    }

    static String requireId(String what, Object value) throws Finished {
        String id = idOf(value);
        if (id == null) throw new Finished("rejected", null, what + ": the answer has no id");
        return id;
    }

    static Finished unknown(Answer answer) {
        return new Finished("unknown", null, "the payment may or may not be recorded (" + answer.said() + "): look it up before charging again");
    }

    static String query(String value) { return URLEncoder.encode(value, StandardCharsets.UTF_8); }

    static final String OWNER = env("RELAY_OWNER_KENNITALA");
    static final String PLATE = env("RELAY_PLATE");

    static List<?> lookUpVehicle() throws Finished, InterruptedException {
        Answer found = call("GET", "/vehicles?plate=" + query(PLATE), null);
        require2xx("vehicle lookup", found);
        return requireList("vehicle lookup", found);
    }

    /** A JSON object from key, value pairs, in that order. */
    static Map<String, Object> object(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) map.put((String) pairs[i], pairs[i + 1]);
        return map;
    }

    static long amount() {
        try {
            return Long.parseLong(env("RELAY_AMOUNT"));
        } catch (NumberFormatException e) {
            System.err.println("RELAY_AMOUNT must be an integer");
            System.exit(2);
            return 0;
        }
    }

    static void advanced() throws Finished, InterruptedException {
        // Advanced rule 1: first query rental companies by the owner's kennitala.
        Answer answer = call("GET", "/rental-companies?kennitala=" + query(OWNER), null);
        require2xx("rental company lookup", answer);
        List<?> companies = requireList("rental company lookup", answer);
        // Advanced rule 2: an empty list: the owner is not part of the service; no further call.
        if (companies.isEmpty()) throw new Finished("skipped", null, "owner " + OWNER + " is not part of the service");
        String companyId = requireId("rental company lookup", companies.get(0));

        // Advanced rule 3: query active vehicles by plate.
        List<?> vehicles = lookUpVehicle();
        String vehicleId;
        if (vehicles.isEmpty()) {
            // Advanced rule 4: no vehicle: create it, then a custodian linking it to the company.
            Map<String, Object> vehicle = object("plate", PLATE, "country", "is");
            answer = call("POST", "/vehicles", vehicle);
            if (answer.ambiguous()) {
                // The vehicle may exist now: look before creating it again, or it exists twice.
                vehicles = lookUpVehicle();
                if (vehicles.isEmpty()) answer = call("POST", "/vehicles", vehicle);
            }
            if (!vehicles.isEmpty()) vehicleId = requireId("vehicle lookup", vehicles.get(0));
            else {
                require2xx("vehicle creation", answer);
                vehicleId = requireId("vehicle creation", answer.body);
            }
            String registered = env("RELAY_REGISTRATION_DATE");
            String acquiredOn = registered.matches("\\d{4}-\\d{2}-\\d{2}") ? registered + " 00:00:00" : registered;
            answer = call("POST", "/custodians", object("vehicleId", vehicleId, "rentalCompanyId", companyId, "acquiredOn", acquiredOn));
            // A lost answer is not sent again either: there is no lookup to tell whether it was recorded.
            require2xx("custodian creation", answer);
        } else {
            // Advanced rule 5: a vehicle is returned: use its id (first element of the list).
            vehicleId = requireId("vehicle lookup", vehicles.get(0));
        }

        // Advanced rule 6: create the payment for that vehicle (the last call).
        answer = call("POST", "/payments", object(
                "locationId", env("RELAY_LOCATION_ID"),
                "vehicleId", vehicleId,
                "amount", object("amount", amount(), "currency", env("RELAY_CURRENCY")),
                "startedOn", env("RELAY_VISIT_START"),
                "endedOn", env("RELAY_VISIT_END"),
                "status", "new"));
        if (answer.ambiguous()) throw unknown(answer);
        require2xx("payment creation", answer);
        throw new Finished("paid", requireId("payment creation", answer.body), null);
    }

    static void simple() throws Finished, InterruptedException {
        // Simple rule 1: one request carrying all payment and vehicle data.
        Answer answer = call("POST", "/payment", object(
                "location", env("RELAY_LOCATION_ID"),
                "vehicle", object("owner", OWNER, "plate", PLATE, "acquiredOn", env("RELAY_REGISTRATION_DATE")),
                "visit", object("startedOn", env("RELAY_VISIT_START"), "endedOn", env("RELAY_VISIT_END")),
                "payment", object("amount", amount(), "currency", env("RELAY_CURRENCY"))));
        // Simple rules 1-2: accepted iff the answer has an id, whatever the status; else its message says why.
        Object body = answer.lost == null ? answer.body : null;
        String paymentId = idOf(body);
        if (paymentId != null) throw new Finished("paid", paymentId, messageOf(body));
        if (answer.ambiguous()) throw unknown(answer);
        String message = messageOf(body);
        throw new Finished("rejected", null, message != null ? message : "the answer has no id and no message (" + answer.said() + ")");
    }

    public static void main(String[] args) throws Exception {
        String flow = env("RELAY_FLOW");
        if (!Set.of("advanced", "simple").contains(flow)) {
            System.err.println("RELAY_FLOW must be 'advanced' or 'simple', got '" + flow + "'");
            System.exit(2);
        }
        try {
            if (flow.equals("advanced")) advanced();
            else simple();
        } catch (Finished done) {
            String result = Json.write(done.result);
            System.err.println("outcome: " + result);
            String file = System.getenv("RELAY_RESULT_FILE");
            if (file != null && !file.isEmpty()) Files.writeString(Path.of(file), result);
        }
        // Exit 0 whatever the service said: the customer's payment completes.
    }

    /** Just enough JSON for this interface: objects, arrays, strings, numbers, booleans and null. */
    static final class Json {
        private final String text;
        private int at;

        private Json(String text) { this.text = text; }

        /** Parses a whole document; throws IllegalArgumentException when it is not JSON. */
        static Object parse(String text) {
            Json json = new Json(text);
            Object value = json.value();
            json.space();
            if (json.at != text.length()) throw json.error("trailing characters");
            return value;
        }

        static String write(Object value) {
            if (value == null) return "null";
            if (value instanceof String s) return quote(s);
            if (value instanceof Number || value instanceof Boolean) return value.toString();
            StringBuilder out = new StringBuilder();
            if (value instanceof Map<?, ?> map) {
                out.append('{');
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    if (out.length() > 1) out.append(',');
                    out.append(quote(entry.getKey().toString())).append(':').append(write(entry.getValue()));
                }
                return out.append('}').toString();
            }
            if (value instanceof List<?> list) {
                out.append('[');
                for (Object item : list) out.append(out.length() > 1 ? "," : "").append(write(item));
                return out.append(']').toString();
            }
            throw new IllegalArgumentException("cannot write " + value.getClass());
        }

        private static String quote(String s) {
            StringBuilder out = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
                }
            }
            return out.append('"').toString();
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("not JSON: " + what + " at " + at);
        }

        private void space() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        }

        private Object value() {
            space();
            if (at >= text.length()) throw error("unexpected end");
            char c = text.charAt(at);
            if (c == '{') return object();
            if (c == '[') return array();
            if (c == '"') return string();
            if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
            if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
            if (text.startsWith("null", at)) { at += 4; return null; }
            return number();
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            at++;
            space();
            if (at < text.length() && text.charAt(at) == '}') { at++; return map; }
            while (true) {
                space();
                if (at >= text.length() || text.charAt(at) != '"') throw error("expected a key");
                String key = string();
                space();
                if (at >= text.length() || text.charAt(at++) != ':') throw error("expected ':'");
                map.put(key, value());
                space();
                if (at >= text.length()) throw error("unexpected end");
                char c = text.charAt(at++);
                if (c == '}') return map;
                if (c != ',') throw error("expected ',' or '}'");
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            at++;
            space();
            if (at < text.length() && text.charAt(at) == ']') { at++; return list; }
            while (true) {
                list.add(value());
                space();
                if (at >= text.length()) throw error("unexpected end");
                char c = text.charAt(at++);
                if (c == ']') return list;
                if (c != ',') throw error("expected ',' or ']'");
            }
        }

        private String string() {
            StringBuilder out = new StringBuilder();
            at++;
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == '"') return out.toString();
                if (c != '\\') { out.append(c); continue; }
                if (at >= text.length()) break;
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        if (at + 4 > text.length()) throw error("bad \\u escape");
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> out.append(e);
                }
            }
            throw error("unterminated string");
        }

        private Object number() {
            int start = at;
            while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
            if (start == at) throw error("unexpected character");
            try {
                return Double.parseDouble(text.substring(start, at));
            } catch (NumberFormatException e) {
                throw error("bad number");
            }
        }
    }
}
