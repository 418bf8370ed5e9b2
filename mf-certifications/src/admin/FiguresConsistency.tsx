import type { ConsistencyReport } from '@portal/contracts'
import { Alert, Button, DataTable, errorMessage, formatDate, Spinner } from '@portal/ui-kit'
import { useConsistency } from './data/apiHooks.ts'

/** What the check found, in words: the headline a screen reader hears first. */
export function consistencyHeadline(r: ConsistencyReport): string {
  if (r.consistent) return 'All figures consistent'
  return `${r.difference_count} figure${r.difference_count === 1 ? ' differs' : 's differ'} from the certification records`
}

/**
 * The consistency check of the compliance figures (issue 23): every technician's figures
 * recomputed from the certification records and compared with what the team dashboard, the admin
 * overview and Certification Notification Management show. "All figures consistent", or the
 * differences in a table.
 */
export const FiguresConsistencyView = ({ report, checking, onCheck }: { report: ConsistencyReport | undefined; checking: boolean; onCheck: () => void }) => (
  <section className="pk-card pk-stack" aria-labelledby="figures-consistency">
    <div className="pk-row pk-between">
      <h2 id="figures-consistency" className="pk-m0 pk-fs-18">
        Compliance Figures
      </h2>
      <Button variant="secondary" onClick={onCheck} disabled={checking}>
        Check Again
      </Button>
    </div>
    <div aria-live="polite" className="pk-stack">
      {checking && !report ? <Spinner label="Checking figures..." /> : null}
      {report ? (
        report.consistent ? (
          <p className="pk-m0">
            <strong className="ct-badge ct-tone--green">{consistencyHeadline(report)}</strong>{' '}
            <span className="pk-muted">
              {`${report.technicians} technician${report.technicians === 1 ? '' : 's'} checked against the team dashboard, the admin overview and notification management, as of ${formatDate(report.as_of)}.`}
            </span>
          </p>
        ) : (
          <>
            <Alert>{`${consistencyHeadline(report)}. The records are right; the figures shown below are not. Certification changes recompute them; tell the platform team if they persist.`}</Alert>
            <DataTable>
              <caption className="pk-visually-hidden">Figures that differ from the certification records</caption>
              <thead>
                <tr>
                  <th scope="col">Screen</th>
                  <th scope="col">Row</th>
                  <th scope="col">Figure</th>
                  <th scope="col">Shown</th>
                  <th scope="col">From the records</th>
                </tr>
              </thead>
              <tbody>
                {report.differences.map((d) => (
                  <tr key={`${d.surface}|${d.key}|${d.field}`}>
                    <td>{d.surface}</td>
                    <th scope="row">{d.key}</th>
                    <td>{d.field.replaceAll('_', ' ')}</td>
                    <td>{d.shown ?? 'missing'}</td>
                    <td>{d.expected ?? 'none'}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
            {report.difference_count > report.differences.length ? (
              <p className="pk-muted pk-m0">{`The first ${report.differences.length} of ${report.difference_count} are listed.`}</p>
            ) : null}
          </>
        )
      ) : null}
    </div>
  </section>
)

/** The check, fetched when the page opens and on Check Again. */
export const FiguresConsistency = () => {
  const check = useConsistency()
  return (
    <>
      {check.isError ? <Alert>{errorMessage(check.error, 'Could not check the compliance figures')}</Alert> : null}
      <FiguresConsistencyView report={check.data} checking={check.isFetching} onCheck={() => void check.refetch()} />
    </>
  )
}
