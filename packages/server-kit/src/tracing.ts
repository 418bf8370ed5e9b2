import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Context, type Span, type SpanContext } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler } from '@opentelemetry/sdk-trace'

export { SpanKind, SpanStatusCode, type Span }

/** W3C trace context as carried in headers (HTTP requests, NATS messages) and in an event envelope. */
export interface TraceCarrier {
  traceparent: string
  tracestate?: string
}

/** What `startTracing` started: `shutdown()` exports the spans still buffered, then stops. */
export interface Tracing {
  readonly enabled: boolean
  shutdown(): Promise<void>
}

const OFF: Tracing = { enabled: false, shutdown: async () => undefined }
let started: (Tracing & { provider: TracerProvider }) | undefined

/** Whether this process exports traces (`startTracing` found OTEL_EXPORTER_OTLP_ENDPOINT): hot paths skip all tracing work otherwise. */
export const tracingEnabled = (): boolean => started !== undefined

/** The tracer every hand-made span of the portal comes from (the API's no-op one until `startTracing` started a provider). */
export const tracer = () => trace.getTracer('portal')

/** OpenTelemetry's sampler names (OTEL_TRACES_SAMPLER), as its SDK environment specification gives them. */
export const TRACE_SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number]

/** What `startTracing` reads (PlatformEnv has them, checked; from process.env they are read as given). */
export interface TracingEnv {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined
  OTEL_SERVICE_NAME?: string | undefined
  OTEL_TRACES_SAMPLER?: string | undefined
  OTEL_TRACES_SAMPLER_ARG?: string | number | undefined
}

/**
 * The sampler OTEL_TRACES_SAMPLER names (default parentbased_always_on: every trace), with
 * OTEL_TRACES_SAMPLER_ARG the ratio of the traceidratio ones (default 1). A parent-based sampler
 * follows the caller's decision (the gateway's, or a browser's sampled `traceparent`), so a trace
 * is kept or dropped whole across the services; the ratio decides where a trace starts.
 */
export function samplerFrom(env: TracingEnv): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on') as TraceSamplerName
  if (!TRACE_SAMPLERS.includes(name)) throw new Error(`OTEL_TRACES_SAMPLER: "${name}" is not one of ${TRACE_SAMPLERS.join(', ')}`)
  const arg = env.OTEL_TRACES_SAMPLER_ARG === undefined || env.OTEL_TRACES_SAMPLER_ARG === '' ? 1 : Number(env.OTEL_TRACES_SAMPLER_ARG)
  if (!(arg >= 0 && arg <= 1)) throw new Error(`OTEL_TRACES_SAMPLER_ARG: "${env.OTEL_TRACES_SAMPLER_ARG}" is not a ratio from 0 to 1`)
  const root = name.endsWith('always_on') ? new AlwaysOnSampler() : name.endsWith('always_off') ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(arg)
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root
}

/** Where spans go: OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces` (OTLP/HTTP, JSON), or nowhere. */
export function tracesEndpoint(env: TracingEnv): string | undefined {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined
}

/**
 * Starts this process's tracer provider when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans sampled
 * (`samplerFrom`), batched and exported by OTLP/HTTP, resource `service.name` = OTEL_SERVICE_NAME,
 * else `serviceName`; the
 * W3C trace context propagator and an AsyncLocalStorage context manager. Without the variable,
 * nothing starts and every span is the API's no-op one. Once per process: a second call (the
 * single-node launcher's services) gets the first's.
 */
export function startTracing(serviceName: string, env: TracingEnv = process.env): Tracing {
  if (started) return started
  const url = tracesEndpoint(env)
  if (!url) return OFF
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || serviceName }),
    sampler: samplerFrom(env),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) })],
  })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  const handle = {
    enabled: true,
    provider,
    async shutdown() {
      if (started !== handle) return
      started = undefined
      await provider.shutdown()
      trace.disable()
      propagation.disable()
      context.disable()
    },
  }
  started = handle
  return handle
}

/** Exports the spans buffered so far (tests wait for them). */
export const flushTraces = async (): Promise<void> => started?.provider.forceFlush()

/** A header getter over Node's or Fetch's headers: the W3C propagator reads `traceparent` and `tracestate`. */
const carrierGetter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const v = carrier[key]
    return typeof v === 'string' || Array.isArray(v) ? (v as string | string[]) : undefined
  },
}

/** The context a trace carrier continues (a malformed `traceparent` is ignored: a new trace starts). */
export function contextFrom(carrier: Partial<TraceCarrier> | Record<string, unknown> | undefined, base: Context = ROOT_CONTEXT): Context {
  if (!started || !carrier) return base
  return propagation.extract(base, carrier as Record<string, unknown>, carrierGetter)
}

/** The trace carrier of `ctx` (default: the active context), or undefined when no span is in it. */
export function carrierOf(ctx: Context = context.active()): TraceCarrier | undefined {
  if (!started || !trace.getSpanContext(ctx)) return undefined
  const out: Partial<TraceCarrier> = {}
  propagation.inject(ctx, out)
  return out.traceparent ? (out as TraceCarrier) : undefined
}

/** The trace id of the active span, for log lines (`trace_id`), or undefined. */
export function activeTraceId(): string | undefined {
  const sc: SpanContext | undefined = started ? trace.getSpanContext(context.active()) : undefined
  return sc && trace.isSpanContextValid(sc) ? sc.traceId : undefined
}

/** Ends `span` after `fn`: an error marks it failed (recorded as an exception) and is thrown on. */
export async function endAfter<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    span.recordException(err as Error)
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message })
    throw err
  } finally {
    span.end()
  }
}

/**
 * Runs `fn` inside a new span (a child of `parent`, default the active context) and ends it when
 * `fn` settles; without tracing, just `fn`.
 */
export async function inSpan<T>(name: string, opts: { kind?: SpanKind; attributes?: Attributes; parent?: Context }, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!started) return fn(undefined)
  const parent = opts.parent ?? context.active()
  const span = tracer().startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent)
  return context.with(trace.setSpan(parent, span), () => endAfter(span, () => fn(span)))
}

/**
 * Runs an event's handler in a consumer span continuing the event's trace (its `trace` carrier,
 * which the NATS bus fills from the message's headers); without tracing, just the handler.
 */
export function consumeInSpan<T>(consumer: string, event: { id: string; type: string; trace?: TraceCarrier | undefined }, fn: () => Promise<T>): Promise<T> {
  if (!started) return fn()
  return inSpan(
    `process ${event.type}`,
    {
      kind: SpanKind.CONSUMER,
      parent: contextFrom(event.trace),
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'process',
        'messaging.destination.name': event.type,
        'messaging.consumer.group.name': consumer,
        'messaging.message.id': event.id,
      },
    },
    fn,
  )
}

/** `base` (default the active context) with `span` as its current span: what a child's parent or a carrier is made of. */
export const contextWithSpan = (span: Span, base: Context = context.active()): Context => trace.setSpan(base, span)
