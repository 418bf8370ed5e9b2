import type { MikroORM } from '@mikro-orm/postgresql'
import type { Logger, SecretBox, Storage } from '@portal/server-kit'
import type { LaunchTokens } from './shared/index.ts'

/** Upload limits of the course forms (bytes). */
export interface UploadLimits {
  maxFileBytes: number
  maxRequestBytes: number
  maxFiles: number
}

/** What the services of this deployable share. */
export interface LearningContext {
  orm: MikroORM
  logger: Logger
  now: () => Date
  /** Uploaded module files and extracted packages. */
  storage: Storage
  /** Signed per-launch tokens for content and commits. */
  launchTokens: LaunchTokens
  uploadLimits: UploadLimits
  /**
   * Origin the gateway serves course content from (`CONTENT_ORIGIN`), never the portal's own: the
   * launch answers point there. '' in route tests (paths only).
   */
  contentOrigin: string
  /** The company's IANA time zone (COMPANY_TIME_ZONE): its calendar date is "today" of due dates (issue 24). */
  timeZone: string
  /** The company's calendar date now (`YYYY-MM-DD`). */
  today: () => string
  /** Seals the secrets learning keeps (the outside LRS's password) under a key not in the database. */
  secrets: SecretBox
}
