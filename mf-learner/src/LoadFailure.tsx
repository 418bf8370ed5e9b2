import { Button } from '@portal/ui-kit'
import { useQueryClient, type Query } from '@tanstack/react-query'
import { useCallback, useSyncExternalStore } from 'react'
import { courseKeys } from './courses/data/apiHooks.ts'
import { examKeys } from './exams/data/apiHooks.ts'
import { dashboardError } from './exams/exam-cards.ts'

/** The dashboard cards' queries (not the course viewer's), by key prefix. */
const CARD_KEYS: readonly (readonly unknown[])[] = [examKeys.exams(), examKeys.allStats(), courseKeys.list()]
const isCard = (key: readonly unknown[]) => CARD_KEYS.some((prefix) => prefix.every((part, i) => key[i] === part))
const failed = (q: Query) => q.state.status === 'error' && isCard(q.queryKey)

/** The error of the first of the dashboard's queries that failed, or null (stable between changes). */
const useFirstFailure = (): unknown => {
  const cache = useQueryClient().getQueryCache()
  const subscribe = useCallback((onChange: () => void) => cache.subscribe(onChange), [cache])
  return useSyncExternalStore(subscribe, () => cache.findAll({ predicate: failed })[0]?.state.error ?? null)
}

/**
 * One message for whatever part of the dashboard failed to load (not one alert per card), with a
 * Try Again that fetches the failed parts again in place.
 */
export const LoadFailure = () => {
  const queryClient = useQueryClient()
  const error = useFirstFailure()
  if (error === null) return null
  return (
    <div role="alert" className="pk-alert pk-alert--error pk-row pk-between">
      <span>{dashboardError(error)}</span>
      <Button size="small" variant="secondary" onClick={() => void queryClient.refetchQueries({ predicate: failed })}>
        Try Again
      </Button>
    </div>
  )
}

/** What a card shows when its part failed: the message and Try Again are at the top of the page. */
export const NotLoaded = () => <p className="pk-muted pk-m0">Not loaded.</p>
