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
  const portal = await startPortal('npm', ['start'])
  project.provide('baseURL', portal.baseURL)
  project.provide('contentURL', portal.contentURL)
  return portal.stop
}
