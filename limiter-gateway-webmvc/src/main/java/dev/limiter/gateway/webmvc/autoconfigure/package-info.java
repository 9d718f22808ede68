/**
 * The wiring of limiter on Spring Cloud Gateway's Server Web MVC, common to both Spring
 * Boot lines:
 * {@link dev.limiter.gateway.webmvc.autoconfigure.LimiterGatewayMvcAutoConfiguration}
 * (its class name is API, as the other auto-configurations' are) and the bean
 * post-processor that names each gateway route, reading the gateway's own route
 * properties. Internal otherwise.
 */
package dev.limiter.gateway.webmvc.autoconfigure;
