import type { LearningContext } from '../context.ts'
import type { XapiActor, XapiAgent } from './types.ts'

/**
 * The portal's IRI in its learners' accounts: `XAPI_ACCOUNT_HOMEPAGE`, else the content origin
 * (stable across restarts: the gateway's CONTENT_ORIGIN), else the default content origin.
 */
export function xapiHomePage(ctx: Pick<LearningContext, 'contentOrigin'>): string {
  return process.env.XAPI_ACCOUNT_HOMEPAGE?.trim() || ctx.contentOrigin || 'http://localhost:8081'
}

/** A learner in every statement: an account agent named by the user's uuid (no names or e-mails). */
export function learnerAgent(ctx: Pick<LearningContext, 'contentOrigin'>, userId: string): XapiAgent {
  return { objectType: 'Agent', account: { homePage: xapiHomePage(ctx), name: userId } }
}

/** The authority of the statements the LRS stores: the portal's LMS. */
export function lmsAuthority(homePage: string): XapiAgent {
  return { objectType: 'Agent', name: 'Portal LMS', account: { homePage, name: 'lms' } }
}

/** The canonical key of an identified agent or group (its one identifier). */
function ifiKey(a: XapiActor): string | null {
  if (a.account) return `account|${a.account.homePage}|${a.account.name}`
  if (a.mbox) return `mbox|${a.mbox.toLowerCase()}`
  if (a.mbox_sha1sum) return `sha1|${a.mbox_sha1sum.toLowerCase()}`
  if (a.openid) return `openid|${a.openid}`
  return null
}

/**
 * A stable key for an agent or group, the same for every spelling of it (name and objectType do
 * not count): what `agent_key` columns hold and the agent filter compares. An anonymous group is
 * keyed by its sorted members.
 */
export function agentKey(agent: XapiActor): string {
  const key = ifiKey(agent)
  if (key) return key
  const members = ('member' in agent && agent.member ? agent.member : []).map((m) => ifiKey(m) ?? '').sort()
  return `group|${members.join(',')}`
}
