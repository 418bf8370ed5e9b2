/** Minimal Prometheus metrics: request count and duration histogram per route. */
export interface Metrics {
  observe(method: string, route: string, status: number, ms: number): void
  render(): string
}

const BUCKETS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000]

export function createMetrics(service: string): Metrics {
  const series = new Map<string, { count: number; sum: number; buckets: number[] }>()
  return {
    observe(method, route, status, ms) {
      const key = `method="${method}",route="${route.replace(/"/g, '')}",status="${status}"`
      let s = series.get(key)
      if (!s) series.set(key, (s = { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) }))
      s.count++
      s.sum += ms / 1000
      BUCKETS.forEach((b, i) => {
        if (ms <= b) s.buckets[i]!++
      })
    },
    render() {
      const lines = ['# HELP http_request_duration_seconds Request duration.', '# TYPE http_request_duration_seconds histogram']
      for (const [labels, s] of series) {
        const l = `service="${service}",${labels}`
        BUCKETS.forEach((b, i) => lines.push(`http_request_duration_seconds_bucket{${l},le="${b / 1000}"} ${s.buckets[i]}`))
        lines.push(`http_request_duration_seconds_bucket{${l},le="+Inf"} ${s.count}`)
        lines.push(`http_request_duration_seconds_sum{${l}} ${s.sum}`)
        lines.push(`http_request_duration_seconds_count{${l}} ${s.count}`)
      }
      return lines.join('\n') + '\n'
    },
  }
}
