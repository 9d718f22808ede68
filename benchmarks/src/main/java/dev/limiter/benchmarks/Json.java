package dev.limiter.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON writing for result files (maps, lists, strings, numbers, booleans,
 * null).
 */
final class Json {

	private Json() {
	}

	static void write(Path file, Object value) {
		try {
			Path parent = file.toAbsolutePath().getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			Files.writeString(file, render(value, "") + "\n", StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	static String render(Object value, String indent) {
		if (value == null) {
			return "null";
		}
		if (value instanceof String s) {
			return quote(s);
		}
		if (value instanceof Double d) {
			return d.isNaN() || d.isInfinite() ? "null" : Double.toString(d);
		}
		if (value instanceof Number || value instanceof Boolean) {
			return value.toString();
		}
		String inner = indent + "  ";
		if (value instanceof Map<?, ?> map) {
			if (map.isEmpty()) {
				return "{}";
			}
			StringBuilder sb = new StringBuilder("{\n");
			Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
			while (it.hasNext()) {
				Map.Entry<?, ?> e = it.next();
				sb.append(inner)
					.append(quote(String.valueOf(e.getKey())))
					.append(": ")
					.append(render(e.getValue(), inner))
					.append(it.hasNext() ? ",\n" : "\n");
			}
			return sb.append(indent).append('}').toString();
		}
		if (value instanceof List<?> list) {
			if (list.isEmpty()) {
				return "[]";
			}
			StringBuilder sb = new StringBuilder("[\n");
			for (int i = 0; i < list.size(); i++) {
				sb.append(inner).append(render(list.get(i), inner)).append(i + 1 < list.size() ? ",\n" : "\n");
			}
			return sb.append(indent).append(']').toString();
		}
		return quote(value.toString());
	}

	private static String quote(String s) {
		StringBuilder sb = new StringBuilder("\"");
		for (char c : s.toCharArray()) {
			switch (c) {
				case '"' -> sb.append("\\\"");
				case '\\' -> sb.append("\\\\");
				case '\n' -> sb.append("\\n");
				case '\r' -> sb.append("\\r");
				case '\t' -> sb.append("\\t");
				default -> {
					if (c < 0x20) {
						sb.append(String.format("\\u%04x", (int) c));
					}
					else {
						sb.append(c);
					}
				}
			}
		}
		return sb.append('"').toString();
	}

}
