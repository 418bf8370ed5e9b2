import { useCallback, useEffect, useRef, useState } from 'react'
import { saveAnswers } from './api.ts'
import { toSubmission, type Draft } from './answers.ts'

const SAVE_DELAY_MS = 800

export type SaveState = 'idle' | 'saving' | 'saved' | 'offline'

/**
 * Saves the answers shortly after each change; a failed save is tried again with the next change,
 * on leaving, or sent with the submit. `flush` sends what is not saved yet at once (leaving the
 * page), waiting at most `ms`.
 */
export function useAnswerSaver(attemptId: string, questionIds: readonly number[], drafts: readonly Draft[]) {
  const [state, setState] = useState<SaveState>('idle')
  const dirty = useRef(false)
  const stopped = useRef(false)
  const latest = useRef(drafts)
  latest.current = drafts
  const inFlight = useRef<Promise<void>>(Promise.resolve())
  const save = useCallback(() => {
    if (stopped.current) return inFlight.current
    dirty.current = false
    setState('saving')
    inFlight.current = saveAnswers(attemptId, toSubmission(latest.current), [...questionIds]).then(
      () => setState('saved'),
      () => {
        dirty.current = true
        setState('offline')
      },
    )
    return inFlight.current
  }, [attemptId, questionIds])
  useEffect(() => {
    if (!dirty.current || stopped.current) return undefined
    const t = setTimeout(() => void save(), SAVE_DELAY_MS)
    return () => clearTimeout(t)
  }, [drafts, save])
  const flush = useCallback((ms = 3_000) => Promise.race([dirty.current ? save() : inFlight.current, new Promise<void>((r) => setTimeout(r, ms))]), [save])
  return {
    state,
    /** Call on every change of an answer. */
    changed: () => {
      dirty.current = true
    },
    flush,
    /** After the submit: nothing more is saved. */
    stop: () => {
      stopped.current = true
    },
  }
}
