import type { ScormItem } from '@portal/contracts'

/** A manifest item for tests (a cluster when `href` is null). */
export const item = (identifier: string, href: string | null, children: ScormItem[] = [], over: Partial<ScormItem> = {}): ScormItem => ({
  identifier,
  title: identifier,
  href,
  isvisible: true,
  launch_data: null,
  mastery_score: null,
  prerequisites: null,
  completion_threshold: null,
  scaled_passing_score: null,
  max_time_allowed: null,
  time_limit_action: null,
  children,
  ...over,
})
