package dev.limiter.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The one EVALSHA → EVAL fallback of {@link RedisScriptCalls}, for a call waited for on a
 * future or on the calling thread: on NOSCRIPT, EVAL, which loads the script into the
 * server's cache, so the next call's EVALSHA finds it.
 */
@SuppressWarnings("rawtypes")
final class EvalShaFallback {

	private EvalShaFallback() {
	}

	/** Sent through the driver; the future completes with the reply. */
	static CompletableFuture<List<Object>> send(RedisScript<List> script, byte[][] keyBytes, byte[][] argBytes,
			RedisDriver driver) {
		return evalShaElseEval(script, keyBytes, argBytes, driver::evalSha, driver::eval);
	}

	/**
	 * On the calling thread: each command runs here (EVAL on the same connection, within
	 * what is left of the same deadline), its answer or failure a completed future, so
	 * the fallback's stage runs here too.
	 */
	static List<Object> onThisThread(RedisScript<List> script, byte[][] keyBytes, byte[][] argBytes,
			RedisDriver.ScriptCommands commands) {
		CompletableFuture<List<Object>> done = evalShaElseEval(script, keyBytes, argBytes,
				(sha, keys, args) -> CompletableFuture.completedFuture(commands.evalSha(sha, keys, args)),
				(body, keys, args) -> CompletableFuture.completedFuture(commands.eval(body, keys, args)));
		try {
			return done.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof RuntimeException failure) {
				throw failure;
			}
			throw ex;
		}
	}

	private static CompletableFuture<List<Object>> evalShaElseEval(RedisScript<List> script, byte[][] keyBytes,
			byte[][] argBytes, ScriptCommand<String> evalSha, ScriptCommand<byte[]> eval) {
		return RedisScriptCalls.sent(() -> evalSha.send(script.getSha1(), keyBytes, argBytes))
			.exceptionallyCompose(failure -> noScript(failure)
					? RedisScriptCalls.sent(() -> eval.send(body(script), keyBytes, argBytes))
					: CompletableFuture.failedFuture(failure));
	}

	/** The script's body, as EVAL sends it (and the connection loads it). */
	static byte[] body(RedisScript<List> script) {
		return script.getScriptAsString().getBytes(StandardCharsets.UTF_8);
	}

	/** NOSCRIPT, by the server's error text: every client reports it in its message. */
	private static boolean noScript(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
			if (t.getMessage() != null && t.getMessage().contains("NOSCRIPT")) {
				return true;
			}
		}
		return false;
	}

	/** EVALSHA (by the script's SHA-1) or EVAL (by its body). */
	@FunctionalInterface
	private interface ScriptCommand<S> {

		CompletableFuture<List<Object>> send(S script, byte[][] keys, byte[][] args);

	}

}
