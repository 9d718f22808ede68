package dev.limiter.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class Sha256Tests {

	@Test
	void base64UrlWhenHashingAbcShouldMatchTheKnownDigest() {
		assertThat(Sha256.base64Url("abc")).isEqualTo("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
	}

	@Test
	void hexWhenTruncatedShouldKeepTheLeadingBytes() {
		assertThat(Sha256.hex("abc", 4)).isEqualTo("ba7816bf");
	}

	@Test
	void hexWhenWholeShouldMatchTheKnownDigest() {
		assertThat(Sha256.hex("abc", 32)).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	}

	@Test
	void digestWhenTheThreadHashedSomethingElseBeforeShouldCarryNothingOver() throws Exception {
		Sha256.digest("a token hashed first on this thread");

		assertThat(Sha256.hex("abc", 4)).isEqualTo("ba7816bf");
		assertThat(Sha256.hex("", 4)).isEqualTo("e3b0c442");
		Thread other = new Thread(() -> Sha256.digest("another thread"));
		other.start();
		other.join();
		assertThat(Sha256.hex("abc", 4)).isEqualTo("ba7816bf");
	}

}
