import type { EntityManager } from '@mikro-orm/postgresql'
import type { ScormCommit, ScormOrganization, ScormVersion, SequencingState } from '@portal/contracts'
import type { StoredManifest } from '../course.entity.ts'
import type { LaunchClaims } from '../../shared/index.ts'
import { rootIdAvoiding } from '../scorm-packages/manifest.ts'
import { countScos } from '../scorm-packages/package-info.ts'
import { scormRepository } from './scorm.repository.ts'

/*
 * SCORM 2004 packages run by scorm-again's sequencing engine in the browser: which ones, the
 * engine's stored state per learner and module, and the root activity's rollup that completes them
 * (docs/decisions/0011-scorm-sequencing.md).
 */

/**
 * The root activity of a package the runtime sequences (SCORM 2004 that declares sequencing, or
 * has several SCOs); null for the others (1.2, AICC, single-SCO 2004 without sequencing).
 * Manifests stored before organizations were kept get one with the spec's defaults.
 */
export function sequencedOrganization(version: ScormVersion | null, manifest: StoredManifest | null): ScormOrganization | null {
  if (version !== '2004' || !manifest) return null
  const organization = manifest.organization ?? { identifier: rootIdAvoiding(manifest.items), declaresSequencing: false, objectivesGlobalToSystem: true }
  return organization.declaresSequencing || countScos(manifest.items) > 1 ? organization : null
}

/** The root rollup says the package is done: completed, or its objective satisfied. */
export const rootDone = (root: NonNullable<ScormCommit['sequencing']>['root']): boolean => root.completionStatus === 'completed' || root.successStatus === 'passed'

/** The learner's stored engine state of a module, null before the first one. */
export const storedSequencingState = (em: EntityManager, userId: string, moduleId: number): Promise<SequencingState | null> => scormRepository.sequencingState(em, userId, moduleId)

/**
 * Stores the engine state a commit carries, unless a newer one is stored (ordered by launch and
 * `seq`, as the SCO states are): a late beacon never takes sequencing back. The launch token names
 * the learner and module, so nobody writes another's state. Resolves true when it was stored and
 * its root rollup says done.
 */
export async function storeSequencingState(em: EntityManager, claims: LaunchClaims, commit: ScormCommit, at: Date): Promise<boolean> {
  const sequencing = commit.sequencing
  if (!sequencing) return false
  let stored: boolean
  try {
    stored = await scormRepository.storeSequencingState(em, {
      userId: claims.userId,
      moduleId: claims.moduleId,
      launchAt: claims.issuedAt,
      seq: commit.seq,
      state: sequencing.state,
      rootCompletion: sequencing.root.completionStatus,
      rootSuccess: sequencing.root.successStatus,
      at,
    })
  } catch (err) {
    // The module was deleted after the launch: there is nothing to resume.
    if ((err as { code?: string }).code === '23503') return false
    throw err
  }
  return stored && rootDone(sequencing.root)
}
