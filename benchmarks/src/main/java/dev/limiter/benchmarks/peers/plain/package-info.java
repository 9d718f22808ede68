/**
 * limiter itself in an app as plain as the peers': its starter on Redis, with the
 * smallest authentication a servlet app can have, so that limiter's cost per request is
 * measured on the same base as theirs.
 */
package dev.limiter.benchmarks.peers.plain;
