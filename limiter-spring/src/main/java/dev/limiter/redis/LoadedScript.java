package dev.limiter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * A script of this package, read once, its SHA-1 computed once. Spring Data's
 * {@code DefaultRedisScript} takes a lock on every {@code getSha1()}: contended on a
 * reactive application's event loop, that lock parks the thread, which an event loop must
 * never do. Here the digest is a final field, read without any lock.
 */
@SuppressWarnings("rawtypes")
final class LoadedScript implements RedisScript<List> {

	private final String body;

	private final String sha1;

	private LoadedScript(String body) {
		this.body = body;
		this.sha1 = RedisScript.of(body, List.class).getSha1();
	}

	/**
	 * Reads the script with this class's own class loader: a resource resolved later
	 * through a thread's context class loader may belong to a web application that has
	 * since been stopped.
	 */
	static LoadedScript load(String name) {
		try (InputStream in = LoadedScript.class.getResourceAsStream(name)) {
			if (in == null) {
				throw new IllegalStateException("missing script dev/limiter/redis/" + name);
			}
			return new LoadedScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read script dev/limiter/redis/" + name, ex);
		}
	}

	@Override
	public String getSha1() {
		return sha1;
	}

	@Override
	public Class<List> getResultType() {
		return List.class;
	}

	@Override
	public String getScriptAsString() {
		return body;
	}

}
