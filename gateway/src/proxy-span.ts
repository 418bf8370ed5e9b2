import type { IncomingMessage, ServerResponse } from 'node:http'
import { SpanKind, SpanStatusCode, startRequestTrace, tracingEnabled } from '@portal/server-kit'

/**
 * Forwards a proxied request inside a server span when tracing is on (`startTracing`) and its
 * trace is sampled: the span continues the browser's `traceparent` when it is well-formed (else
 * starts a trace), is named after the method and the route table's pattern (never the path: no
 * query, no token), and ends with the answer's status. The request to the service carries the
 * gateway's span as its `traceparent` (and `tracestate`) in place of the browser's. A dropped trace
 * makes no span: the service is sent its context, not sampled, so that it makes none either
 * (`startRequestTrace`). Without tracing, just `forward()`.
 */
export function forwardTraced(req: IncomingMessage, res: ServerResponse, route: string, upstream: string, forward: () => void): void {
  if (!tracingEnabled()) return forward()
  const method = req.method ?? 'GET'
  const traced = startRequestTrace(
    `${method} ${route}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': route, 'portal.upstream': upstream } },
    req.headers,
  )
  if (!traced) return forward()
  // The proxy passes the request's headers on: the service's parent is the gateway's span.
  req.headers.traceparent = traced.carrier.traceparent
  if (traced.carrier.tracestate) req.headers.tracestate = traced.carrier.tracestate
  else delete req.headers.tracestate
  const span = traced.span
  if (span)
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode)
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      else if (!res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: 'answer cut short' })
      span.end()
    })
  forward()
}
