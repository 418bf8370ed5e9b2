import type { DashboardItem, NotificationConfig, NotificationConfigInput, TriggerResponse } from '@portal/contracts'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { fetchConfigs, fetchDashboard, fetchForecast, fetchLogs, sendReminder, triggerDaily, triggerWeekly, updateConfig } from '../api.ts'
import { sendReminders, type BulkOutcome } from '../notification-view.ts'

/** Query keys of Certification Notification Management. */
export const notificationKeys = {
  all: ['certification-notifications'] as const,
  dashboard: () => [...notificationKeys.all, 'dashboard'] as const,
  forecast: () => [...notificationKeys.all, 'forecast'] as const,
  configs: () => [...notificationKeys.all, 'configs'] as const,
  logs: () => [...notificationKeys.all, 'logs'] as const,
}

/** The grouped dashboard with the compliance overview, expired items included: the first of each group, or `all`. */
export const useCertificationDashboard = (all = false) =>
  useQuery({ queryKey: all ? [...notificationKeys.dashboard(), 'all'] : notificationKeys.dashboard(), queryFn: () => fetchDashboard(all), placeholderData: keepPreviousData })

/** The compliance forecast. */
export const useComplianceForecast = () => useQuery({ queryKey: notificationKeys.forecast(), queryFn: fetchForecast })

/** The e-mail configuration of every branch and department. */
export const useNotificationConfigs = () => useQuery({ queryKey: notificationKeys.configs(), queryFn: fetchConfigs })

/** The latest notification log entries. */
export const useNotificationLogs = () => useQuery({ queryKey: notificationKeys.logs(), queryFn: fetchLogs })

/** Puts a saved configuration in place of its row in the cached list (no fetch: the answer is the row). */
const useReplaceConfig = () => {
  const queryClient = useQueryClient()
  return (saved: NotificationConfig) => queryClient.setQueryData<NotificationConfig[]>(notificationKeys.configs(), (list) => list?.map((c) => (c.id === saved.id ? saved : c)))
}

/** Switches a configuration active or inactive; the saved row replaces the cached one, then `onToggled` runs. */
export const useToggleConfig = (onToggled: (saved: NotificationConfig) => void) => {
  const replace = useReplaceConfig()
  return useMutation({
    mutationFn: (c: NotificationConfig) => updateConfig(c.id, { is_active: !c.is_active }),
    onSuccess: (answer) => {
      replace(answer.config)
      onToggled(answer.config)
    },
  })
}

/** Saves a configuration's e-mails (the edit dialog); the saved row replaces the cached one, then `onSaved` runs. */
export const useSaveConfig = (id: number, onSaved: (saved: NotificationConfig) => void) => {
  const replace = useReplaceConfig()
  return useMutation({
    mutationFn: (body: NotificationConfigInput) => updateConfig(id, body),
    onSuccess: (answer) => {
      replace(answer.config)
      onSaved(answer.config)
    },
  })
}

/** Fetches the logs again: a reminder sent shows there. */
const useRefreshLogs = () => {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: notificationKeys.logs() })
}

/** A reminder to one technician about an expired certification; `onSent` runs first, then the logs are fetched again. */
export const useSendReminder = (onSent: (item: DashboardItem) => void) => {
  const refreshLogs = useRefreshLogs()
  return useMutation({
    mutationFn: (item: DashboardItem) => sendReminder(item.technician_certification_id),
    onSuccess: async (_, item) => {
      onSent(item)
      await refreshLogs()
    },
  })
}

/** A reminder for each item, one call after another; `onSent` gets the successes and failures, then the logs are fetched again. */
export const useSendReminders = (onSent: (outcome: BulkOutcome) => void) => {
  const refreshLogs = useRefreshLogs()
  return useMutation({
    mutationFn: (items: DashboardItem[]) => sendReminders(items, sendReminder),
    onSuccess: async (outcome) => {
      onSent(outcome)
      await refreshLogs()
    },
  })
}

/** Runs the daily check or the weekly report now; `onRun` runs first, then every notification query is fetched again. */
export const useTrigger = (run: 'daily' | 'weekly', onRun: (answer: TriggerResponse) => void) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: run === 'daily' ? triggerDaily : triggerWeekly,
    onSuccess: async (answer) => {
      onRun(answer)
      await queryClient.invalidateQueries({ queryKey: notificationKeys.all })
    },
  })
}
