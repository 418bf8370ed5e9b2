import type { EntityManager } from '@mikro-orm/postgresql'
import { launchableItems, type ScormItem } from '@portal/contracts'
import { manifestOf, type ModuleRow } from '../access.ts'
import { scormRepository } from './scorm.repository.ts'
import { sequencedOrganization } from './sequencing-state.ts'

/** Identifiers of the SCOs a learner can open (launchable and visible): all must be completed. */
export const requiredScos = (manifest: { items: ScormItem[] } | null): string[] =>
  manifest
    ? launchableItems(manifest.items)
        .filter((i) => i.isvisible)
        .map((i) => i.identifier)
    : []

export interface ContentCompletion {
  /** The content reports the whole module complete. */
  done: boolean
  /** SCOs that must report completion, and how many did (for the progress shown meanwhile). */
  required: number
  reported: number
}

/**
 * What a package's own content says of a learner's completion of it: a package with sequencing
 * rules by its root rollup (kept with the engine's state), another with several SCOs once every
 * visible SCO reported completion, a single-SCO one when its SCO did. Completions the content
 * reports skip the engagement rule; this is the one place that decides what "reports" means.
 */
export async function contentCompletion(em: EntityManager, userId: string, module: Pick<ModuleRow, 'id' | 'manifest' | 'scorm_version'>): Promise<ContentCompletion> {
  const manifest = manifestOf(module as ModuleRow)
  const required = requiredScos(manifest)
  const done = new Set(await scormRepository.reportedCompleteItems(em, userId, module.id))
  const reported = required.filter((id) => done.has(id)).length
  if (sequencedOrganization(module.scorm_version, manifest)?.declaresSequencing) {
    return { done: await scormRepository.rootReportsDone(em, userId, module.id), required: required.length, reported }
  }
  return { done: required.length > 1 ? reported === required.length : done.size > 0, required: required.length, reported }
}
