import type { ScormVersion } from '@portal/contracts'
import type { Api12Class, Api2004Class } from './scorm-again-types.ts'

/*
 * Per-version builds, loaded on demand so SCORM 1.2 content never downloads the 2004 build (with
 * its sequencing engine). The package's types declare a default export while its ESM builds
 * export the class by name: accept either.
 */
type Scorm12Class = Api12Class
type Scorm2004Class = Api2004Class

let scorm12: Scorm12Class | null = null
let scorm2004: Scorm2004Class | null = null

/** Loads the scorm-again build `version` needs (AICC runs on the 1.2 API); call before `startScormSession`. */
export async function preloadRuntime(version: ScormVersion): Promise<void> {
  if (version === '2004') {
    if (!scorm2004) {
      const mod = (await import('scorm-again/scorm2004')) as unknown as { Scorm2004API?: Scorm2004Class; default?: Scorm2004Class }
      scorm2004 = mod.Scorm2004API ?? mod.default ?? null
    }
  } else if (!scorm12) {
    const mod = (await import('scorm-again/scorm12')) as unknown as { Scorm12API?: Scorm12Class; default?: Scorm12Class }
    scorm12 = mod.Scorm12API ?? mod.default ?? null
  }
}

/** True once `preloadRuntime(version)` has finished. */
export function runtimeLoaded(version: ScormVersion): boolean {
  return version === '2004' ? scorm2004 !== null : scorm12 !== null
}

export function scorm12Class(): Scorm12Class {
  if (!scorm12) throw new Error('SCORM 1.2 runtime not loaded: await preloadRuntime(version) first')
  return scorm12
}

export function scorm2004Class(): Scorm2004Class {
  if (!scorm2004) throw new Error('SCORM 2004 runtime not loaded: await preloadRuntime(version) first')
  return scorm2004
}
