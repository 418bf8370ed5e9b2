/**
 * What a launch token says: which learner opened which module, when. Content frames, media
 * elements and beacons cannot send an Authorization header, so the token travels in the URL path
 * (`/api/content/{token}/...`, `/api/scorm/commit/{token}`) and is the credential there. It is
 * valid only for the learner and module it was issued for, and only until it expires.
 */
export interface LaunchClaims {
  userId: string
  moduleId: number
  courseId: number
  /** Issued to an admin (who may open any course, assigned or not). */
  admin: boolean
  /** Unique per launch. */
  launchId: string
  /** Milliseconds since the epoch at issue: orders commits of different launches. */
  issuedAt: number
  expiresAt: Date
}

/** Issues and verifies launch tokens (the context carries them; courses/launch/launch-token.ts makes them). */
export interface LaunchTokens {
  readonly ttlSeconds: number
  issue(c: { userId: string; moduleId: number; courseId: number; admin?: boolean }): Promise<{ token: string; claims: LaunchClaims }>
  /** The token's claims; 401 `launch_expired` when it has expired, 401 `invalid_launch_token` otherwise. */
  verify(token: string): Promise<LaunchClaims>
}
