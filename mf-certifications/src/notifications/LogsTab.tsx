import { Button, DataTable, errorMessage, formatDate, formatDateTime, Spinner, TableHead } from '@portal/ui-kit'
import { Badge, LoadFailure } from '../shared/index.ts'
import { useNotificationLogs } from './data/apiHooks.ts'
import { LOG_STATUS, shownLogs, typeLabel } from './notification-view.ts'

/** Notification Logs (admin §2, §3, §9): the latest 50 entries fetched, the first 20 shown. */
export const LogsTab = () => {
  const logs = useNotificationLogs()
  if (logs.isPending) return <Spinner label="Loading notification logs..." />
  if (logs.isError) return <LoadFailure error={logs.error} text={errorMessage(logs.error, 'Failed to load notification logs')} onRetry={() => void logs.refetch()} />
  const { rows, caption } = shownLogs(logs.data)
  return (
    <div className="pk-stack">
      <div className="pk-row pk-between">
        <p className="pk-muted pk-m0">{caption}</p>
        <Button size="small" variant="secondary" aria-disabled={logs.isFetching || undefined} onClick={() => !logs.isFetching && void logs.refetch()}>
          Refresh Logs
        </Button>
      </div>
      {rows.length > 0 ? (
        <DataTable className="pk-table--stack">
          <caption className="pk-visually-hidden">Notification log</caption>
          <TableHead columns={['Sent', 'Technician', 'Branch', 'Certification', 'Type', 'Recipients', 'Status']} />
          <tbody>
            {rows.map((log) => {
              const status = LOG_STATUS[log.status]
              return (
                <tr key={log.id}>
                  <td data-label="Sent">{formatDateTime(log.sent_at)}</td>
                  <td data-label="Technician">{log.technician ? `${log.technician.name}${log.technician.department ? ` (${log.technician.department})` : ''}` : '—'}</td>
                  <td data-label="Branch">{log.technician?.branch ?? '—'}</td>
                  <td data-label="Certification">{log.certification?.code ?? '—'}</td>
                  <td data-label="Type">{typeLabel(log)}</td>
                  <td data-label="Recipients" className="pk-break">
                    {log.recipient_emails.length > 0 ? log.recipient_emails.join(', ') : '—'}
                  </td>
                  <td data-label="Status">
                    <div className="pk-stack pk-gap-xs">
                      <Badge tone={status.tone}>{status.text}</Badge>
                      {log.acknowledged_at ? <span className="pk-muted">Acknowledged {formatDate(log.acknowledged_at)}</span> : null}
                      {log.status === 'failed' && log.error ? <span className="pk-muted">{log.error}</span> : null}
                    </div>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </DataTable>
      ) : null}
    </div>
  )
}
