import type { AssignmentReportQuery, AssignmentRule, AssignmentRuleData, AssignmentRuleSaved, ExemptionResult } from '@portal/contracts'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createRule, deleteRule, exempt, fetchCertificationTypes, fetchReport, fetchRules, liftExemption, previewRule, updateRule } from '../api.ts'

/** Query keys of the assignment rules feature (svc-learning's rules and reports; certs' types they may follow). */
export const assignmentKeys = {
  all: ['assignment-rules'] as const,
  list: () => [...assignmentKeys.all, 'list'] as const,
  report: (id: number, q: AssignmentReportQuery) => [...assignmentKeys.all, 'report', id, q] as const,
  certificationTypes: () => ['certification-types', 'list'] as const,
}

/** Every assignment rule with its people by state. */
export const useAssignmentRules = () => useQuery({ queryKey: assignmentKeys.list(), queryFn: fetchRules })

/** The certification types (a recurring rule may follow one's expiry); asked for only when `enabled`. */
export const useCertificationTypes = (enabled = true) => useQuery({ queryKey: assignmentKeys.certificationTypes(), queryFn: fetchCertificationTypes, enabled, staleTime: 60_000 })

/** Fetches the rules and every report again (after a save, a delete or an exemption). */
export const useRefreshAssignments = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: assignmentKeys.all })
}

/** The dry run of a save: `ruleId` when editing one. */
export const usePreviewRule = (ruleId: number | null) =>
  useMutation({ mutationFn: (input: AssignmentRuleData) => previewRule(ruleId === null ? input : { ...input, rule_id: ruleId }) })

/**
 * Saves a rule (updates `ruleId`, or creates one when null). The rule as saved shows in the list at
 * once (replacing it, or first as the newest), `onSaved` gets the answer, then the rules are fetched again.
 */
export const useSaveRule = (ruleId: number | null, onSaved: (saved: AssignmentRuleSaved) => void) => {
  const queryClient = useQueryClient()
  const refresh = useRefreshAssignments()
  return useMutation({
    mutationFn: (input: AssignmentRuleData) => (ruleId === null ? createRule(input) : updateRule(ruleId, input)),
    onSuccess: async (saved) => {
      const { message: _message, changes: _changes, ...rule } = saved
      queryClient.setQueryData<AssignmentRule[]>(assignmentKeys.list(), (list) =>
        list ? (list.some((r) => r.id === rule.id) ? list.map((r) => (r.id === rule.id ? rule : r)) : [rule, ...list]) : list,
      )
      onSaved(saved)
      await refresh()
    },
  })
}

/** Deletes a rule; `onDeleted` runs before the rules are fetched again. */
export const useDeleteRule = (onDeleted: (id: number, message: string) => void) => {
  const refresh = useRefreshAssignments()
  return useMutation({
    mutationFn: deleteRule,
    onSuccess: async (deleted, id) => {
      onDeleted(id, deleted.message)
      await refresh()
    },
  })
}

/** One page of a rule's report; the page shown stays while the next one loads. */
export const useAssignmentReport = (id: number, q: AssignmentReportQuery) =>
  useQuery({ queryKey: assignmentKeys.report(id, q), queryFn: () => fetchReport(id, q), placeholderData: keepPreviousData })

/** Marks a person exempt (with a reason) or lifts it; the rules and reports are fetched again. */
export const useExemption = (ruleId: number, onDone: (result: ExemptionResult, lifted: boolean) => void) => {
  const refresh = useRefreshAssignments()
  return useMutation({
    mutationFn: (a: { user_id: string; reason: string } | { user_id: string; lift: true }) =>
      'lift' in a ? liftExemption(ruleId, a.user_id) : exempt(ruleId, { user_id: a.user_id, reason: a.reason }),
    onSuccess: async (result, a) => {
      onDone(result, 'lift' in a)
      await refresh()
    },
  })
}
