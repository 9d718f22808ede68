package dev.limiter.web;

import java.net.URI;
import java.util.Collection;
import java.util.LinkedHashMap;
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
		StringBuilder out = new StringBuilder("{");
		for (Map.Entry<String, Object> member : members(problem).entrySet()) {
			if (out.length() > 1) {
				out.append(',');
			}
			quote(member.getKey(), out);
			out.append(':');
			value(member.getValue(), out);
		}
		return out.append('}').toString();
	}

	/**
	 * The members of {@code problem} in the order they are written, for a writer that
	 * serialises them itself (the actuator endpoint's, through its own Jackson mapper).
	 */
	public static Map<String, Object> members(ProblemDetail problem) {
		Map<String, Object> members = new LinkedHashMap<>();
		URI type = problem.getType();
		members.put("type", (type == null) ? "about:blank" : type.toString());
		if (problem.getTitle() != null) {
			members.put("title", problem.getTitle());
		}
		members.put("status", problem.getStatus());
		if (problem.getDetail() != null) {
			members.put("detail", problem.getDetail());
		}
		if (problem.getInstance() != null) {
			members.put("instance", problem.getInstance().toString());
		}
		if (problem.getProperties() != null) {
			members.putAll(problem.getProperties());
		}
		return members;
	}

	/**
	 * {@code value} as a JSON string, escaped as every body the limiter writes
	 * ({@code null} as {@code null}).
	 */
	public static String string(String value) {
		if (value == null) {
			return "null";
		}
		StringBuilder out = new StringBuilder(value.length() + 2);
		quote(value, out);
		return out.toString();
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
