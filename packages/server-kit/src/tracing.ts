import { randomBytes } from 'node:crypto'
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, context, propagation, trace, type Attributes, type Context, type Span, type SpanContext } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { TraceState, W3CTraceContextPropagator, parseTraceParent } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type IdGenerator,
  type Sampler,
} from '@opentelemetry/sdk-trace'

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
let started: (Tracing & { provider: TracerProvider; sampling: Sampling; ids: HeadIds }) | undefined

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

/** A sampler's two halves: whether it follows the caller's decision, and what decides where a trace starts. */
interface Sampling {
  parentBased: boolean
  root: Sampler
}

/** OTEL_TRACES_SAMPLER and its ratio, checked, as the two halves of the sampler (`samplerFrom`). */
function samplingFrom(env: TracingEnv): Sampling {
  const name = (env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on') as TraceSamplerName
  if (!TRACE_SAMPLERS.includes(name)) throw new Error(`OTEL_TRACES_SAMPLER: "${name}" is not one of ${TRACE_SAMPLERS.join(', ')}`)
  const arg = env.OTEL_TRACES_SAMPLER_ARG === undefined || env.OTEL_TRACES_SAMPLER_ARG === '' ? 1 : Number(env.OTEL_TRACES_SAMPLER_ARG)
  if (!(arg >= 0 && arg <= 1)) throw new Error(`OTEL_TRACES_SAMPLER_ARG: "${env.OTEL_TRACES_SAMPLER_ARG}" is not a ratio from 0 to 1`)
  const root = name.endsWith('always_on') ? new AlwaysOnSampler() : name.endsWith('always_off') ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(arg)
  return { parentBased: name.startsWith('parentbased_'), root }
}

/**
 * The sampler OTEL_TRACES_SAMPLER names (default parentbased_always_on: every trace), with
 * OTEL_TRACES_SAMPLER_ARG the ratio of the traceidratio ones (default 1). A parent-based sampler
 * follows the caller's decision (the gateway's, or a browser's sampled `traceparent`), so a trace
 * is kept or dropped whole across the services; the ratio decides where a trace starts. Each of
 * these decides on the trace id alone, so a decision taken ahead (`startRequestTrace`) is the one
 * the SDK takes again.
 */
export const samplerFrom = (env: TracingEnv): Sampler => samplerOf(samplingFrom(env))

/** The sampler made of its two halves. */
const samplerOf = ({ parentBased, root }: Sampling): Sampler => (parentBased ? new ParentBasedSampler({ root }) : root)

/** Random bytes as hex, drawn 4 KiB at a time: a request's ids are two slices of it. */
const HEX_POOL_BYTES = 4096
const ZERO_TRACE_ID = '0'.repeat(32)
const ZERO_SPAN_ID = '0'.repeat(16)

/**
 * Random trace and span ids (from the system's generator, as hex sliced off a pool instead of
 * drawn per id), except that the next trace id can be given: a request's trace id is drawn, and
 * sampled, before its span is made (`startRequestTrace`). All-zero ids are invalid and drawn again.
 */
class HeadIds implements IdGenerator {
  next: string | undefined
  #pool = ''
  #at = 0
  #hex(chars: number): string {
    if (this.#at + chars > this.#pool.length) {
      this.#pool = randomBytes(HEX_POOL_BYTES).toString('hex')
      this.#at = 0
    }
    return this.#pool.slice(this.#at, (this.#at += chars))
  }
  generateTraceId(): string {
    const given = this.next
    this.next = undefined
    if (given) return given
    let id = this.#hex(32)
    while (id === ZERO_TRACE_ID) id = this.#hex(32)
    return id
  }
  generateSpanId(): string {
    let id = this.#hex(16)
    while (id === ZERO_SPAN_ID) id = this.#hex(16)
    return id
  }
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
  const sampling = samplingFrom(env)
  const ids = new HeadIds()
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || serviceName }),
    sampler: samplerOf(sampling),
    idGenerator: ids,
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) })],
  })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  const handle = {
    enabled: true,
    provider,
    sampling,
    ids,
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
  // Under a dropped trace a parent-based sampler drops this span too: it is not made (the SDK
  // would make a non-recording one), and the dropped trace's context is carried on as it is.
  if (started.sampling.parentBased && isDropped(trace.getSpanContext(parent))) return context.with(parent, () => fn(undefined))
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

/** Whether `sc` is a valid trace context its caller did not sample. */
const isDropped = (sc: SpanContext | undefined): boolean => sc !== undefined && (sc.traceFlags & TraceFlags.SAMPLED) === 0 && trace.isSpanContextValid(sc)

/** A request's part in its trace, decided before any span is made (`startRequestTrace`). */
export interface RequestTrace {
  /** The request's span when its trace is kept; none is made for a dropped trace. */
  span: Span | undefined
  /** The span's context, or the dropped trace's context carried on (the caller's, or a new one's). */
  spanContext: SpanContext
  /** What the next hop is sent as `traceparent` (and `tracestate`). */
  carrier: TraceCarrier
}

/** The two hex digits of trace flags. */
const flagsHex = (flags: number) => (flags & 0xff).toString(16).padStart(2, '0')

/** A carrier for `sc`, as the W3C propagator writes it, without a context to inject from. */
const carrierFor = (sc: SpanContext, tracestate: string | undefined): TraceCarrier => {
  const traceparent = `00-${sc.traceId}-${sc.spanId}-${flagsHex(sc.traceFlags)}`
  return tracestate ? { traceparent, tracestate } : { traceparent }
}

/** A dropped trace's context, carried on without a span: flags without the sampled bit. */
function dropped(traceId: string, spanId: string, flags: number, tracestate: string | undefined): RequestTrace {
  const spanContext: SpanContext = { traceId, spanId, traceFlags: flags & ~TraceFlags.SAMPLED, isRemote: true }
  if (tracestate) spanContext.traceState = new TraceState(tracestate)
  return { span: undefined, spanContext, carrier: carrierFor(spanContext, tracestate) }
}

/**
 * Starts a request's span (the gateway's for each proxied request, each service's for each request
 * it serves), deciding first whether its trace is kept: a parent-based sampler follows the caller's
 * well-formed `traceparent`; otherwise the root sampler decides on the trace id (the caller's, or one
 * drawn here that the span then starts). A dropped trace makes no span at all, only its context to
 * carry on: this is what keeps tracing cheap at a ratio below 1, where the SDK would make (and
 * propagate) a non-recording span per request. Undefined when tracing is off; callers on a hot path
 * check `tracingEnabled()` first, so that nothing is built for it then.
 */
export function startRequestTrace(name: string, opts: { kind: SpanKind; attributes: Attributes }, incoming: { readonly [header: string]: unknown }): RequestTrace | undefined {
  const tracing = started
  if (!tracing) return undefined
  const tracestate = typeof incoming.tracestate === 'string' ? incoming.tracestate : undefined
  const parent = typeof incoming.traceparent === 'string' ? parseTraceParent(incoming.traceparent) : null
  if (parent && tracing.sampling.parentBased) {
    if ((parent.traceFlags & TraceFlags.SAMPLED) === 0) return dropped(parent.traceId, parent.spanId, parent.traceFlags, tracestate)
  } else {
    const traceId = parent?.traceId ?? tracing.ids.generateTraceId()
    if (tracing.sampling.root.shouldSample(ROOT_CONTEXT, traceId, name, opts.kind, opts.attributes, []).decision !== SamplingDecision.RECORD_AND_SAMPLED)
      return dropped(traceId, parent ? parent.spanId : tracing.ids.generateSpanId(), TraceFlags.NONE, parent ? tracestate : undefined)
    // The span starts the trace id the sampler kept.
    if (!parent) tracing.ids.next = traceId
  }
  try {
    // The caller's context as the W3C propagator would extract it, from the header parsed above.
    const parentContext = parent
      ? trace.setSpanContext(ROOT_CONTEXT, { ...parent, isRemote: true, ...(tracestate ? { traceState: new TraceState(tracestate) } : {}) })
      : ROOT_CONTEXT
    const span = tracer().startSpan(name, opts, parentContext)
    const spanContext = span.spanContext()
    return { span, spanContext, carrier: carrierFor(spanContext, spanContext.traceState?.serialize()) }
  } finally {
    tracing.ids.next = undefined
  }
}

/** The context a request runs in (`base` default the active one): its span's, or its dropped trace's, so that what it publishes carries the trace on. */
export const contextOfRequest = (t: RequestTrace, base: Context = context.active()): Context => (t.span ? trace.setSpan(base, t.span) : trace.setSpanContext(base, t.spanContext))
