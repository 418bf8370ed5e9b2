import type { UserGroup } from '@portal/contracts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { fetchRules, fetchTracking, saveTracking, sendTestReport, updateRule } from '../api.ts'

/** Query keys of the group notification rules feature (notify's; the groups themselves are the users feature's). */
export const ruleKeys = {
  all: ['notification-rules'] as const,
  list: () => [...ruleKeys.all, 'list'] as const,
  tracking: (group: string) => [...ruleKeys.all, 'tracking', group] as const,
}

/** How often the rules are asked for again while a group has none yet. */
const RULE_POLL_MS = 2_000

/** Fetches the notification rules again (after a change to one, or a new group). */
export const useRefreshRules = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ruleKeys.all })
}

/** The groups' notification rules. A new group's rule is made by notify from identity's event: ask again until every group in `groups` has one. */
export const useNotificationRules = (groups: readonly UserGroup[] | undefined) =>
  useQuery({
    queryKey: ruleKeys.list(),
    queryFn: fetchRules,
    refetchInterval: (q) => (groups?.some((g) => !q.state.data?.some((r) => r.user_group === g.name)) ? RULE_POLL_MS : false),
  })

/** Turns a rule's notifications on or off (the opposite of `isActive`), then fetches the rules again. */
export const useToggleRule = (ruleId: number, isActive: boolean) => {
  const refresh = useRefreshRules()
  return useMutation({ mutationFn: () => updateRule(ruleId, { is_active: !isActive }), onSuccess: refresh })
}

/** Saves a rule's recipients; `onSaved` runs before the rules are fetched again. */
export const useSaveRecipients = (ruleId: number, onSaved: () => void) => {
  const refresh = useRefreshRules()
  return useMutation({
    mutationFn: (list: string[]) => updateRule(ruleId, { recipient_emails: list }),
    onSuccess: async () => {
      onSaved()
      await refresh()
    },
  })
}

/** Sends the group a test report; `onSent` gets the server's message. */
export const useSendTestReport = (group: string, onSent: (message: string) => void) => useMutation({ mutationFn: () => sendTestReport(group), onSuccess: (r) => onSent(r.message) })

/** What a group's report tracks, with its schedule. */
export const useTracking = (group: string) => useQuery({ queryKey: ruleKeys.tracking(group), queryFn: () => fetchTracking(group) })

/** Saves what a group's report tracks and when; the rules are fetched again before `onSaved` runs. */
export const useSaveTracking = (group: string, onSaved: () => void) => {
  const refresh = useRefreshRules()
  return useMutation({
    mutationFn: (body: Parameters<typeof saveTracking>[1]) => saveTracking(group, body),
    onSuccess: async () => {
      await refresh()
      onSaved()
    },
  })
}
