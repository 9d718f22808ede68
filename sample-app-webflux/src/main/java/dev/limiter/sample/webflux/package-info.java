/**
 * The sample service on Spring WebFlux: sample-app's routes, tokens and budgets on
 * Reactor Netty and reactive Spring Security, with no Servlet API, Tomcat or Spring MVC.
 * The stack-neutral classes (the tokens, the properties, the application class) and the
 * YAML are sample-app's own; this package holds the reactive controllers and security.
 *
 * <p>
 * An example to read and copy, not a library: nothing here is API.
 */
package dev.limiter.sample.webflux;
