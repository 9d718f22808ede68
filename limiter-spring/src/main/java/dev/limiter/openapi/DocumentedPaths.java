package dev.limiter.openapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.limiter.routes.DocumentedPatterns;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.parameters.Parameter;

/**
 * Writes each path of the document as the route inventory shows it
 * ({@link DocumentedPatterns}): the limiter endpoint's key operations under
 * {@code /actuator/limiter/keys/{keyHash}}, without the selector the actuator registered
 * in place of {@code keys}. The order of the paths is kept.
 */
final class DocumentedPaths {

	private DocumentedPaths() {
	}

	static void rename(OpenAPI openApi, DocumentedPatterns documented) {
		Paths paths = openApi.getPaths();
		boolean renamed = paths.keySet()
			.stream()
			.anyMatch(path -> !documented.documented(path).equals(path)
					&& !paths.containsKey(documented.documented(path)));
		if (!renamed) {
			return;
		}
		Paths shown = new Paths();
		shown.setExtensions(paths.getExtensions());
		for (Map.Entry<String, PathItem> path : paths.entrySet()) {
			String as = documented.documented(path.getKey());
			if (as.equals(path.getKey()) || paths.containsKey(as)) {
				shown.addPathItem(path.getKey(), path.getValue());
			}
			else {
				PathItem item = path.getValue();
				item.setParameters(inPath(item.getParameters(), as));
				for (Operation operation : item.readOperations()) {
					operation.setParameters(inPath(operation.getParameters(), as));
				}
				shown.addPathItem(as, item);
			}
		}
		openApi.setPaths(shown);
	}

	/** The parameters, less the path parameters the path no longer has. */
	private static List<Parameter> inPath(List<Parameter> parameters, String path) {
		if (parameters == null) {
			return null;
		}
		List<Parameter> kept = new ArrayList<>();
		for (Parameter parameter : parameters) {
			if (!"path".equals(parameter.getIn()) || path.contains("{" + parameter.getName() + "}")) {
				kept.add(parameter);
			}
		}
		return kept;
	}

}
