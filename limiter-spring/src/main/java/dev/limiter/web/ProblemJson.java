package dev.limiter.web;

import java.net.URI;
import java.util.Collection;
import java.util.Map;

import org.springframework.http.ProblemDetail;

/**
 * The one encoder of the limiter's {@link ProblemDetail}s
 * (docs/adr/0007-problem-responses.md): {@code type}, {@code title}, {@code status},
 * {@code detail}, {@code instance}, then the properties in the order they were set.
 * Property values are the limiter's own strings, numbers and lists of strings; anything
 * else is written as its string. Every character outside printable ASCII is escaped, so
 * the bytes do not depend on a charset, and no JSON library is needed (the runtime serves
 * Jackson 2 and Jackson 3 applications alike).
 */
public final class ProblemJson {

	private ProblemJson() {
	}

	public static String encode(ProblemDetail problem) {
		StringBuilder out = new StringBuilder("{\"type\":");
		URI type = problem.getType();
		quote(type == null ? "about:blank" : type.toString(), out);
		if (problem.getTitle() != null) {
			out.append(",\"title\":");
			quote(problem.getTitle(), out);
		}
		out.append(",\"status\":").append(problem.getStatus());
		if (problem.getDetail() != null) {
			out.append(",\"detail\":");
			quote(problem.getDetail(), out);
		}
		if (problem.getInstance() != null) {
			out.append(",\"instance\":");
			quote(problem.getInstance().toString(), out);
		}
		Map<String, Object> properties = problem.getProperties();
		if (properties != null) {
			for (Map.Entry<String, Object> property : properties.entrySet()) {
				out.append(',');
				quote(property.getKey(), out);
				out.append(':');
				value(property.getValue(), out);
			}
		}
		return out.append('}').toString();
	}

	private static void value(Object value, StringBuilder out) {
		if (value instanceof Number || value instanceof Boolean) {
			out.append(value);
		}
		else if (value instanceof Collection<?> list) {
			out.append('[');
			int i = 0;
			for (Object element : list) {
				if (i++ > 0) {
					out.append(',');
				}
				quote(String.valueOf(element), out);
			}
			out.append(']');
		}
		else {
			quote(String.valueOf(value), out);
		}
	}

	private static void quote(String value, StringBuilder out) {
		out.append('"');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '"' || c == '\\') {
				out.append('\\').append(c);
			}
			else if (c < 0x20 || c > 0x7e) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		out.append('"');
	}

}
