/** The few calls statements out makes to an external LRS (xAPI 1.0.3), with Basic auth. */

export const XAPI_VERSION = '1.0.3'

export interface LrsTarget {
  endpoint: string
  username: string
  password: string
}

/** `endpoint` + resource, whether or not the endpoint ends with a slash. */
export const resourceUrl = (endpoint: string, resource: string) => `${endpoint.replace(/\/+$/, '')}/${resource}`

const headers = (t: LrsTarget, extra: Record<string, string> = {}) => ({
  'X-Experience-API-Version': XAPI_VERSION,
  ...(t.username || t.password ? { Authorization: `Basic ${Buffer.from(`${t.username}:${t.password}`).toString('base64')}` } : {}),
  ...extra,
})

/** What the LRS answered, or why it could not be reached (status null). */
export interface LrsAnswer {
  status: number | null
  /** The LRS's words (its body's start) or the network error's. */
  detail: string
}

const brief = async (res: Response) => (await res.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 300)
const networkError = (err: unknown): LrsAnswer => {
  const e = err as Error & { cause?: { code?: string; message?: string } }
  const why = e.name === 'TimeoutError' ? 'timed out' : (e.cause?.code ?? e.cause?.message ?? e.message)
  return { status: null, detail: `could not reach the LRS (${why})` }
}

/** PUT {endpoint}/statements?statementId=<id>: 204 (or 200) stored, 409 already there. */
export async function putStatement(t: LrsTarget, statement: { id: string }, timeoutMs: number): Promise<LrsAnswer> {
  try {
    const res = await fetch(`${resourceUrl(t.endpoint, 'statements')}?statementId=${encodeURIComponent(statement.id)}`, {
      method: 'PUT',
      headers: headers(t, { 'Content-Type': 'application/json' }),
      body: JSON.stringify(statement),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    })
    return { status: res.status, detail: res.ok ? '' : await brief(res) }
  } catch (err) {
    return networkError(err)
  }
}

/** GET {endpoint}/about with the credentials: the versions the LRS speaks. */
export async function about(t: LrsTarget, timeoutMs: number): Promise<LrsAnswer & { versions: string[] }> {
  try {
    const res = await fetch(resourceUrl(t.endpoint, 'about'), { headers: headers(t), signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' })
    if (!res.ok) return { status: res.status, detail: await brief(res), versions: [] }
    const body = (await res.json().catch(() => null)) as { version?: unknown } | null
    const versions = Array.isArray(body?.version) ? body.version.filter((v): v is string => typeof v === 'string') : []
    return { status: res.status, detail: '', versions }
  } catch (err) {
    return { ...networkError(err), versions: [] }
  }
}

/**
 * Answers that say nothing against the statement itself, and may pass later: kept and retried.
 * The LRS down or overloaded (network, 5xx, 408, 429), or the settings wrong until the admin fixes
 * them (a redirect, 401/403 credentials, 404/405 not the xAPI endpoint): dropping every statement
 * meanwhile would lose them all. Other 4xx (400 malformed, 413 too large...) refuse the statement
 * itself: it would never pass.
 */
export const retriable = (a: LrsAnswer) => a.status === null || a.status < 400 || a.status >= 500 || [401, 403, 404, 405, 408, 429].includes(a.status)

/** The statement is at the LRS (stored now or before). */
export const accepted = (a: LrsAnswer) => a.status === 200 || a.status === 204 || a.status === 409

export const describeAnswer = (a: LrsAnswer) => (a.status === null ? a.detail : `the LRS answered ${a.status}${a.detail ? `: ${a.detail}` : ''}`)
