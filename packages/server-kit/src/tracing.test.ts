import { describe, expect, it } from 'vitest'
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api'
import { SamplingDecision } from '@opentelemetry/sdk-trace'
import { PlatformEnv } from './env.ts'
import { samplerFrom, tracesEndpoint } from './tracing.ts'

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
