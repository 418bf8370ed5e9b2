// A real OpenID provider for tests (oidc-provider, OpenID Certified), started on a loopback port:
// accounts whose claims cover every mapping of company sign-in, a login page a person (or a test)
// fills in, consent given at once, and the means to misbehave on purpose (an ID token re-signed
// with one claim changed, or unsigned) and to rotate its signing key. Used by identity's tests and
// the e2e journey (package entry `svc-identity/oidc-test-provider`).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from 'jose'
import Provider, { type KoaContextWithOIDC } from 'oidc-provider'

/** A person at the provider: the password of the login page, the claims it releases, and whether they are disabled. */
export interface TestAccount {
  password: string
  claims: Record<string, unknown>
  disabled?: boolean
}

export interface TestClient {
  client_id: string
  client_secret?: string
  redirect_uris: string[]
  post_logout_redirect_uris?: string[]
}

/** Changes the token endpoint's answer (tests of a provider or a network that lies). */
export type TokenTamper = (
  body: Record<string, unknown>,
  provider: { sign: (header: Record<string, unknown>, claims: Record<string, unknown>) => Promise<string> },
) => Promise<Record<string, unknown>>

const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

async function newSigningKey(kid: string): Promise<{ jwk: JWK; privateKey: CryptoKey }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  return { jwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }, privateKey }
}

/**
 * The provider's stored state (sessions, grants, codes, tokens) in memory, shared by the instances
 * one test provider builds (a key rotation keeps them). oidc-provider's own one warns at every start.
 */
function memoryStorage() {
  type Entry = { payload: Record<string, unknown>; expiresAt?: number }
  const store = new Map<string, Entry>()
  const live = (key: string) => {
    const e = store.get(key)
    if (e?.expiresAt && e.expiresAt < Date.now()) store.delete(key)
    return store.get(key)?.payload
  }
  return class Adapter {
    readonly name: string
    constructor(name: string) {
      this.name = name
    }
    key = (id: string) => `${this.name}:${id}`
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined })
      if (typeof payload.grantId === 'string') store.set(`grant:${payload.grantId}:${this.key(id)}`, { payload: {} })
      if (typeof payload.uid === 'string') store.set(`uid:${this.name}:${payload.uid}`, { payload: { id } })
      if (typeof payload.userCode === 'string') store.set(`userCode:${this.name}:${payload.userCode}`, { payload: { id } })
    }
    async find(id: string) {
      return live(this.key(id))
    }
    async findByUid(uid: string) {
      const ref = live(`uid:${this.name}:${uid}`)
      return ref ? live(this.key(String(ref.id))) : undefined
    }
    async findByUserCode(code: string) {
      const ref = live(`userCode:${this.name}:${code}`)
      return ref ? live(this.key(String(ref.id))) : undefined
    }
    async consume(id: string) {
      const e = live(this.key(id))
      if (e) e.consumed = Math.floor(Date.now() / 1000)
    }
    async destroy(id: string) {
      store.delete(this.key(id))
    }
    async revokeByGrantId(grantId: string) {
      for (const k of [...store.keys()].filter((k) => k.startsWith(`grant:${grantId}:`))) {
        store.delete(k.slice(`grant:${grantId}:`.length))
        store.delete(k)
      }
    }
  }
}

const readForm = (req: IncomingMessage) =>
  new Promise<URLSearchParams>((resolve, reject) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => resolve(new URLSearchParams(body)))
    req.on('error', reject)
  })

/**
 * Starts the provider on 127.0.0.1 (a free port unless `port` is given). Claims are released by
 * scope: `email` (email, email_verified), `profile` (name, given_name, family_name) and `portal`
 * (employee_id, branch, department, hire_date, groups); as the specification has it, they come
 * from userinfo, not the ID token (oidc-provider's conformIdTokenClaims). Refresh tokens are issued
 * to every client that may use them; a disabled account gets none, and its refresh is refused.
 */
export async function startTestProvider(opts: { clients: TestClient[]; accounts: Record<string, TestAccount>; port?: number; accessTokenTtlSeconds?: number }) {
  const accounts = new Map(Object.entries(opts.accounts))
  const keys = [await newSigningKey('key-1')]
  let tamper: TokenTamper | null = null
  let keySeq = 1
  const adapter = memoryStorage()

  const server = createServer()
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const build = () => {
    const provider = new Provider(issuer, {
      adapter,
      clients: opts.clients.map((c) => ({
        ...c,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: c.client_secret ? 'client_secret_basic' : 'none',
      })),
      jwks: { keys: keys.map((k) => k.jwk) },
      cookies: { keys: ['test-provider-cookie-key'] },
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'given_name', 'family_name'],
        portal: ['employee_id', 'branch', 'department', 'hire_date', 'groups'],
      },
      scopes: ['openid', 'offline_access', 'email', 'profile', 'portal'],
      features: {
        devInteractions: { enabled: false },
        rpInitiatedLogout: {
          enabled: true,
          // The provider's "sign out?" question (`form` is its hidden form; the buttons submit it).
          async logoutSource(ctx, form) {
            ctx.type = 'html'
            ctx.body = html(
              'Sign out of the Test Provider',
              `${form}<p><button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button> <button type="submit" form="op.logoutForm">No, stay signed in</button></p>`,
            )
          },
        },
      },
      async renderError(ctx, out) {
        ctx.type = 'html'
        ctx.body = html('Test Provider error', `<p role="alert">${escape(String(out.error))}: ${escape(String(out.error_description ?? ''))}</p>`)
      },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      ttl: { AccessToken: opts.accessTokenTtlSeconds ?? 3600, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 86400, Interaction: 600, Session: 86400, Grant: 86400 },
      pkce: { required: () => true },
      async findAccount(_ctx, id) {
        const account = accounts.get(id)
        if (!account || account.disabled) return undefined
        return { accountId: id, claims: async () => ({ ...account.claims, sub: id }) }
      },
    })
    // A tampering test rewrites the token endpoint's answer after the provider made it.
    provider.use(async (ctx, next) => {
      await next()
      if (tamper && ctx.method === 'POST' && ctx.path === '/token' && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') {
        ctx.body = await tamper(ctx.body as Record<string, unknown>, { sign })
      }
    })
    return provider
  }
  let provider = build()

  /** Signs a JWT with the provider's current key (`alg: none` gives an unsigned one). */
  const sign = async (header: Record<string, unknown>, claims: Record<string, unknown>) => {
    if (header.alg === 'none') {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
      return `${part({ ...header, typ: 'JWT' })}.${part(claims)}.`
    }
    const key = keys[0]!
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: key.jwk.kid, ...header }).sign(key.privateKey)
  }

  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res)
    const uid = details.uid
    const finishConsent = async (accountId: string, login?: { accountId: string }) => {
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: String(details.params.client_id) })
      if (!grant) throw new Error('grant lost')
      grant.addOIDCScope(String(details.params.scope ?? 'openid'))
      const missingClaims = (details.prompt.details.missingOIDCClaims as string[] | undefined) ?? []
      if (missingClaims.length) grant.addOIDCClaims(missingClaims)
      const grantId = await grant.save()
      await provider.interactionFinished(req, res, { ...(login ? { login } : {}), consent: { grantId } }, { mergeWithLastSubmission: false })
    }
    const path = new URL(req.url ?? '/', issuer).pathname
    if (req.method === 'GET' && details.prompt.name === 'consent') return finishConsent(String(details.session?.accountId))
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return res.end(
        html(
          'Sign in to the Test Provider',
          `<form method="post" action="/interaction/${uid}/login">
             <p><label>Username <input name="login" autocomplete="username" autofocus></label></p>
             <p><label>Password <input name="password" type="password" autocomplete="current-password"></label></p>
             <p><button type="submit">Sign in</button></p>
           </form>
           <form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>`,
        ),
      )
    }
    if (path.endsWith('/abort'))
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false })
    const form = await readForm(req)
    const login = form.get('login') ?? ''
    const account = accounts.get(login)
    if (!account || account.password !== form.get('password')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return res.end(html('Sign in to the Test Provider', `<p role="alert">Wrong username or password for ${escape(login)}.</p><p><a href="/interaction/${uid}">Try again</a></p>`))
    }
    if (account.disabled) return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'account disabled' }, { mergeWithLastSubmission: false })
    return finishConsent(login, { accountId: login })
  }

  server.on('request', (req, res) => {
    if ((req.url ?? '').startsWith('/interaction/')) {
      interaction(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(String(err))
      })
      return
    }
    void provider.callback()(req, res)
  })

  return {
    issuer,
    accounts,
    /** Rewrites (or with null, stops rewriting) the token endpoint's answers. */
    tamperTokens(fn: TokenTamper | null) {
      tamper = fn
    },
    sign,
    /** Re-signs `idToken` with its claims and header changed (`alg: none` leaves it unsigned). */
    async resign(idToken: string, change: { claims?: Record<string, unknown>; header?: Record<string, unknown> }) {
      return sign({ ...decodeProtectedHeader(idToken), ...change.header }, { ...decodeJwt(idToken), ...change.claims })
    },
    /**
     * A new signing key, published first and signing from now on (the old one stays published, as
     * providers do while tokens signed by it live). Sessions, grants and tokens are kept (the
     * provider's memory adapter is shared).
     */
    async rotateKey() {
      keys.unshift(await newSigningKey(`key-${++keySeq}`))
      provider = build()
      return keys[0]!.jwk.kid!
    },
    /** The kid signing ID tokens now. */
    currentKid: () => keys[0]!.jwk.kid!,
    /**
     * Plays a browser at the provider: follows `authorizationUrl` through the login page (as
     * `login` with `password`, or pressing Cancel) until the provider sends the browser elsewhere,
     * and returns that address (the portal's callback). `jar` keeps the provider's cookies between
     * sign-ins (its session); pass the same one to sign in again as the same browser.
     */
    async browse(authorizationUrl: string, login: { login: string; password?: string } | 'cancel', jar: Map<string, string> = new Map()): Promise<URL> {
      let url = new URL(authorizationUrl)
      let method = 'GET'
      let body: string | undefined
      for (let hops = 0; hops < 20; hops++) {
        if (url.origin !== issuer) return url
        const res = await fetch(url, {
          method,
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          body,
        })
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';')
          const at = pair!.indexOf('=')
          const name = pair!.slice(0, at)
          const value = pair!.slice(at + 1)
          if (value && !/expires=Thu, 01 Jan 1970/i.test(c)) jar.set(name, value)
          else jar.delete(name)
        }
        const location = res.headers.get('location')
        if (location) {
          url = new URL(location, url)
          method = 'GET'
          body = undefined
          continue
        }
        const page = await res.text()
        const form = /<form method="post" action="(\/interaction\/[^"]+\/login)">/.exec(page)
        if (res.status !== 200 || !form) throw new Error(`the provider answered ${res.status}: ${page.slice(0, 300)}`)
        if (body !== undefined) throw new Error(`the provider refused the login: ${page.slice(0, 300)}`)
        if (login === 'cancel') {
          url = new URL(form[1]!.replace(/\/login$/, '/abort'), issuer)
          body = ''
        } else {
          url = new URL(form[1]!, issuer)
          body = new URLSearchParams({ login: login.login, password: login.password ?? accounts.get(login.login)?.password ?? '' }).toString()
        }
        method = 'POST'
      }
      throw new Error('too many redirects at the provider')
    },
    async stop() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
export type TestProvider = Awaited<ReturnType<typeof startTestProvider>>
