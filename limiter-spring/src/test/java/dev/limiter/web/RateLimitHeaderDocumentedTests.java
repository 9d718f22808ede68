package dev.limiter.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/http-contract.md} and the one home of the contract's names
 * ({@link RateLimitHeader}, {@link ProblemMember}) say the same: every header and member
 * defined is in the page's tables, and every one the tables list is defined.
 */
class RateLimitHeaderDocumentedTests {

	/** Standard HTTP headers the refusal table lists beside the limiter's own. */
	private static final Set<String> STANDARD = Set.of("Cache-Control", "CDN-Cache-Control", "Content-Type");

	private static final Pattern NAME = Pattern.compile("`([^`]+)`");

	@Test
	void admittedHeaderTableWhenReadShouldListExactlyTheHeadersAnAdmittedResponseMayCarry() throws IOException {
		Set<String> defined = Arrays.stream(RateLimitHeader.values())
			.filter(RateLimitHeader::onAdmitted)
			.map(RateLimitHeader::headerName)
			.collect(Collectors.toCollection(LinkedHashSet::new));
		assertThat(firstColumn(table("## Headers on admitted responses", 0)))
			.containsExactlyInAnyOrderElementsOf(defined);
	}

	@Test
	void refusalTableWhenReadShouldListEveryRefusalHeaderAndOnlyDefinedOnes() throws IOException {
		List<String> listed = firstColumn(table("## Refusal: `429`", 0));
		assertThat(listed).containsAll(Arrays.stream(RateLimitHeader.values())
			.filter((header) -> !header.onAdmitted())
			.map(RateLimitHeader::headerName)
			.toList());
		assertThat(listed).allSatisfy((name) -> assertThat(
				name.equals("X-RateLimit-*") || STANDARD.contains(name) || RateLimitHeader.names().contains(name))
			.as("'%s' in the refusal table is a defined header", name)
			.isTrue());
	}

	@Test
	void problemMemberTableWhenReadShouldListExactlyTheDefinedMembers() throws IOException {
		assertThat(firstColumn(table("## Refusal: `429`", 1))).containsExactlyInAnyOrderElementsOf(
				Arrays.stream(ProblemMember.values()).map(ProblemMember::member).toList());
	}

	/** The rows (header and separator left out) of the n-th table after a heading. */
	private static List<String> table(String heading, int n) throws IOException {
		String page = Files.readString(Path.of("..", "docs", "http-contract.md"), StandardCharsets.UTF_8);
		int at = page.indexOf("\n" + heading + "\n");
		assertThat(at).as("the heading %s", heading).isNotNegative();
		int end = page.indexOf("\n## ", at + 1);
		List<List<String>> tables = new ArrayList<>();
		List<String> current = null;
		for (String line : page.substring(at, (end < 0) ? page.length() : end).split("\n")) {
			if (line.startsWith("|")) {
				if (current == null) {
					current = new ArrayList<>();
					tables.add(current);
				}
				current.add(line);
			}
			else {
				current = null;
			}
		}
		assertThat(tables).as("tables under %s", heading).hasSizeGreaterThan(n);
		return tables.get(n).subList(2, tables.get(n).size());
	}

	/** The backquoted names of each row's first cell ({@code `A`, `B`} is two). */
	private static List<String> firstColumn(List<String> rows) {
		List<String> names = new ArrayList<>();
		for (String row : rows) {
			Matcher matcher = NAME.matcher(row.split("\\|")[1]);
			while (matcher.find()) {
				names.add(matcher.group(1));
			}
		}
		return names;
	}

}
