import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_CONTEXT, SpanKind, TraceFlags, context, trace } from '@opentelemetry/api'
import { SamplingDecision, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { PlatformEnv } from './env.ts'
import { carrierOf, contextFrom, contextOfRequest, inSpan, samplerFrom, startRequestTrace, startTracing, tracesEndpoint, type Tracing } from './tracing.ts'

/** What `sampler` decides for a trace id: at the root, or under a caller's sampled or unsampled context. */
function decide(sampler: ReturnType<typeof samplerFrom>, traceId: string, parent?: 'sampled' | 'unsampled') {
  const ctx = parent
    ? trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: '00f067aa0ba902b7', traceFlags: parent === 'sampled' ? TraceFlags.SAMPLED : TraceFlags.NONE, isRemote: true })
    : ROOT_CONTEXT
  return sampler.shouldSample(ctx, traceId, 'POST /scorm/commit/:token', SpanKind.SERVER, {}, []).decision
}
const LOW = '00000000000000000000000000000001' // a trace id every ratio above 0 keeps
const HIGH = 'ffffffffffffffffffffffffffffffff' // one that only a ratio of 1 keeps
const KEPT = SamplingDecision.RECORD_AND_SAMPLED
const DROPPED = SamplingDecision.NOT_RECORD

describe('trace sampling (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG)', () => {
  it('keeps every trace by default, and follows a caller that dropped its trace', () => {
    const sampler = samplerFrom({})
    expect([decide(sampler, HIGH), decide(sampler, HIGH, 'sampled'), decide(sampler, HIGH, 'unsampled')]).toEqual([KEPT, KEPT, DROPPED])
  })

  it('parentbased_traceidratio starts a share of the traces and follows the caller everywhere else', () => {
    const sampler = samplerFrom({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' })
    const ids = Array.from({ length: 200 }, () => crypto.randomUUID().replaceAll('-', ''))
    const started = ids.find((id) => decide(sampler, id) === KEPT)!
    const notStarted = ids.find((id) => decide(sampler, id) === DROPPED)!
    expect([started, notStarted].every(Boolean)).toBe(true)
    // A browser's (or the gateway's) sampled traceparent keeps the trace whole across the services.
    expect([decide(sampler, notStarted, 'sampled'), decide(sampler, started, 'unsampled')]).toEqual([KEPT, DROPPED])
    // Of 10,000 random trace ids, about a tenth start a kept trace.
    let kept = 0
    for (let i = 0; i < 10_000; i++) if (decide(sampler, crypto.randomUUID().replaceAll('-', '')) === KEPT) kept++
    expect(kept).toBeGreaterThan(800)
    expect(kept).toBeLessThan(1_200)
  })

  it('takes the other names as OpenTelemetry gives them, and refuses unknown ones and bad ratios', () => {
    expect(decide(samplerFrom({ OTEL_TRACES_SAMPLER: 'always_off' }), LOW)).toBe(DROPPED)
    expect(decide(samplerFrom({ OTEL_TRACES_SAMPLER: 'always_on' }), HIGH, 'unsampled')).toBe(KEPT)
    expect(decide(samplerFrom({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 0 }), LOW, 'sampled')).toBe(DROPPED)
    expect(() => samplerFrom({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/)
    expect(() => samplerFrom({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/)
  })

  it('is checked with the rest of the configuration: blanks are unset, bad values name the variable', () => {
    const blank = PlatformEnv.parse({ OTEL_TRACES_SAMPLER: '', OTEL_TRACES_SAMPLER_ARG: '' })
    expect([blank.OTEL_TRACES_SAMPLER, blank.OTEL_TRACES_SAMPLER_ARG]).toEqual([undefined, undefined])
    const set = PlatformEnv.parse({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })
    expect([set.OTEL_TRACES_SAMPLER, set.OTEL_TRACES_SAMPLER_ARG]).toEqual(['parentbased_traceidratio', 0.25])
    const bad = PlatformEnv.safeParse({ OTEL_TRACES_SAMPLER: 'often', OTEL_TRACES_SAMPLER_ARG: 'half' })
    expect(bad.success).toBe(false)
    expect(bad.error!.issues.map((i) => i.path[0]).sort()).toEqual(['OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG'])
  })

  it('exports to the collector /v1/traces, nowhere when the endpoint is blank', () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces')
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeUndefined()
  })
})

describe("a request's trace, decided before its span is made (startRequestTrace)", () => {
  // Spans go to a receiver that drops them: these checks read the spans themselves, not an export.
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')))
  const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: '' }
  const RATIO = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }
  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    ENDPOINT.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())))
  const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/
  const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' }
  const request = (incoming: Record<string, unknown> = {}) => startRequestTrace('POST /scorm/commit/:token', { kind: SpanKind.SERVER, attributes: {} }, incoming)!
  let tracing: Tracing | undefined
  afterEach(async () => {
    await tracing?.shutdown()
    tracing = undefined
  })

  it('is undefined with tracing off', () => {
    expect(startRequestTrace('GET /x', { kind: SpanKind.SERVER, attributes: {} }, {})).toBeUndefined()
  })

  it('makes a span for a tenth of the new traces, and for the rest only a context to carry on', () => {
    tracing = startTracing('test', { ...ENDPOINT, ...RATIO })
    const root = samplerFrom(RATIO)
    const traces = Array.from({ length: 4_000 }, () => request())
    const kept = traces.filter((t) => t.span)
    expect(kept.length).toBeGreaterThan(300)
    expect(kept.length).toBeLessThan(500)
    for (const t of traces) {
      const [, traceId, spanId, flags] = TRACEPARENT.exec(t.carrier.traceparent)!
      // The span starts the very trace id the sampler kept: the SDK's own decision on it agrees.
      expect([traceId, spanId, flags]).toEqual([t.spanContext.traceId, t.spanContext.spanId, t.span ? '01' : '00'])
      expect(root.shouldSample(ROOT_CONTEXT, traceId!, 'x', SpanKind.SERVER, {}, []).decision).toBe(t.span ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD)
      expect(t.span?.isRecording() ?? false).toBe(Boolean(t.span))
    }
    expect(new Set(traces.map((t) => t.spanContext.traceId)).size).toBe(traces.length)
  })

  it('follows the caller: none for its dropped trace (carried on as it came), a child span for its kept one', () => {
    tracing = startTracing('test', { ...ENDPOINT, ...RATIO })
    const dropped = request({ traceparent: `00-${CALLER.traceId}-${CALLER.spanId}-00`, tracestate: 'vendor=1' })
    expect(dropped.span).toBeUndefined()
    expect(dropped.carrier).toEqual({ traceparent: `00-${CALLER.traceId}-${CALLER.spanId}-00`, tracestate: 'vendor=1' })
    const kept = request({ traceparent: `00-${CALLER.traceId}-${CALLER.spanId}-01` })
    expect((kept.span as unknown as ReadableSpan).parentSpanContext?.spanId).toBe(CALLER.spanId)
    expect(kept.spanContext.traceId).toBe(CALLER.traceId)
    expect(kept.carrier.traceparent).toBe(`00-${CALLER.traceId}-${kept.spanContext.spanId}-01`)
    // A malformed traceparent is no caller's: a trace starts here.
    expect(request({ traceparent: `00-${'0'.repeat(32)}-${CALLER.spanId}-01` }).spanContext.traceId).not.toBe('0'.repeat(32))
  })

  it('keeps every trace by default, each request its own span', () => {
    tracing = startTracing('test', ENDPOINT)
    const traces = Array.from({ length: 50 }, () => request())
    expect(traces.every((t) => t.span?.isRecording() && t.carrier.traceparent.endsWith('-01'))).toBe(true)
  })

  it('runs what a dropped request does in its trace context: what it publishes carries the trace on, dropped, and makes no span', async () => {
    tracing = startTracing('test', { ...ENDPOINT, ...RATIO })
    const dropped = request({ traceparent: `00-${CALLER.traceId}-${CALLER.spanId}-00` })
    const published = await context.with(contextOfRequest(dropped), () => inSpan('publish x', {}, async (span) => ({ span, carrier: carrierOf() })))
    expect(published).toEqual({ span: undefined, carrier: { traceparent: `00-${CALLER.traceId}-${CALLER.spanId}-00` } })
    // An event consumed under it makes no span either; under a kept trace it does.
    expect(await inSpan('process x', { parent: contextFrom(published.carrier) }, async (span) => span)).toBeUndefined()
    const kept = await inSpan('process x', { parent: contextFrom({ traceparent: `00-${CALLER.traceId}-${CALLER.spanId}-01` }) }, async (span) => span?.isRecording())
    expect(kept).toBe(true)
    expect(trace.getSpanContext(contextOfRequest(dropped))?.traceFlags).toBe(TraceFlags.NONE)
  })
})
