// OpenTelemetry traces over OTLP, imported only when an endpoint is configured: @fastify/otel's span for each request,
// undici's for each upstream call (which carries the W3C traceparent), the trace id on each log line of a request,
// and no secret in any span: URL attributes are written as the logs write paths.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { FastifyOtelInstrumentation } from "@fastify/otel";
import { context, propagation, type Span, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { UndiciInstrumentation, type UndiciRequest } from "@opentelemetry/instrumentation-undici";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { loggablePath } from "#server/plugins/logging.ts";

export type Tracing = {
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  /** Sends what is left and stops: apps built and calls made after it are not traced, as before `startTracing`. */
  shutdown(): Promise<void>;
};

/**
 * Starts tracing for this process: every Fastify app created after this (the portal, and the embedded sandbox when it
 * runs) gets its request spans, every undici call its client span and traceparent header. Call before building the app.
 */
export function startTracing({ endpoint, serviceName }: { endpoint: string; serviceName: string }): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The global provider, W3C trace-context propagation and the AsyncLocalStorage context manager.
  provider.register();

  const fastifyInstrumentation = new FastifyOtelInstrumentation({
    // A span per request and one for its handler; a span for each of the dozen hooks would drown them.
    instrumentHooks: false,
    // The raw URL holds the MFA code in its path and link-login uuids in its query.
    requestHook: (span, request) => span.setAttribute("url.path", loggablePath(request)),
  });
  fastifyInstrumentation.setTracerProvider(provider);
  const undiciInstrumentation = new UndiciInstrumentation({ startSpanHook: redactedUrl });
  undiciInstrumentation.setTracerProvider(provider);

  const onInitialization = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    // Called at once, not through register (which runs later): its onRoute hook must see every route.
    fastifyInstrumentation.plugin()(fastify, {}, () => {});
    fastify.addHook("onRequest", logTraceIds);
    fastify.addHook("onClose", async () => {
      await provider.forceFlush();
    });
  };
  subscribe("fastify.initialization", onInitialization);

  async function shutdown() {
    unsubscribe("fastify.initialization", onInitialization);
    fastifyInstrumentation.disable();
    undiciInstrumentation.disable();
    await provider.shutdown();
    // What `register` set for the process: the global provider, the propagator and the context manager.
    trace.disable();
    propagation.disable();
    context.disable();
  }
  return { flush: () => provider.forceFlush(), shutdown };
}

/**
 * The URL attributes of an upstream call, as the logs write paths: no query, the MFA code's segment as `***`. They
 * replace the stock ones before the span starts, so the raw URL is never recorded.
 */
function redactedUrl(request: UndiciRequest) {
  const path = loggablePath({ url: request.path });
  return { "url.full": `${request.origin}${path}`, "url.path": path, "url.query": "" };
}

const spanOf = (request: FastifyRequest): Span | undefined => request.opentelemetry().span ?? undefined;

/** Each line the request logs (its own, and the one written when it completes) names its trace and span. */
function logTraceIds(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  const span = spanOf(request);
  if (span) {
    const { traceId, spanId } = span.spanContext();
    request.log = request.log.child({ trace_id: traceId, span_id: spanId });
    reply.log = request.log;
  }
  done();
}
