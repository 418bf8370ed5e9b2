import type { TestProject } from 'vitest/node'
import { startPortal } from './portal.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    /** The content origin (course content plays there, never on baseURL's origin). */
    contentURL: string
  }
}

/** Starts the portal with `npm start` (fresh data folder, embedded defaults) for the journeys. */
export default async function setup(project: TestProject) {
  // Every journey registers from this one machine's address: the per-address registration limit
  // (10 an hour, held by svc-identity's limits test) would refuse the later journeys' learners.
  const portal = await startPortal('npm', ['start'], { REGISTRATIONS_PER_ADDRESS_PER_HOUR: '100000' })
  project.provide('baseURL', portal.baseURL)
  project.provide('contentURL', portal.contentURL)
  return portal.stop
}
