import { CERT_NOTIFICATION_MESSAGES as M, type TriggerResponse } from '@portal/contracts'
import { Alert, Button, errorMessage } from '@portal/ui-kit'
import { useTrigger } from './data/apiHooks.ts'
import { triggerAnnouncement } from './notification-view.ts'

/**
 * Manual actions (admin §2): the daily check and the weekly management report on demand, with the
 * alerts of admin §8. Each answers once its run is done; the logs and dashboard then reload.
 */
export const ManualActions = ({ announce }: { announce: (text: string, detail?: string) => void }) => {
  const done = (answer: TriggerResponse) => {
    const { text, detail } = triggerAnnouncement(answer.run)
    announce(text, detail)
  }
  const daily = useTrigger('daily', done)
  const weekly = useTrigger('weekly', done)
  return (
    <section className="pk-card pk-stack" aria-labelledby="cn-actions">
      <h2 id="cn-actions" className="pk-m0">
        Manual Actions
      </h2>
      <p className="pk-muted pk-m0">Both run on their schedule every day and every week; run them now to send what is due at once. Nothing is sent twice.</p>
      <div className="pk-row">
        {/* aria-disabled, not disabled, while running: a focused control that turns disabled drops focus. */}
        <Button aria-disabled={daily.isPending || undefined} onClick={() => !daily.isPending && daily.mutate()}>
          {daily.isPending ? 'Running Daily Check...' : 'Run Daily Check'}
        </Button>
        <Button variant="secondary" aria-disabled={weekly.isPending || undefined} onClick={() => !weekly.isPending && weekly.mutate()}>
          {weekly.isPending ? 'Sending Weekly Report...' : 'Send Weekly Report'}
        </Button>
      </div>
      {daily.isError ? <Alert>{errorMessage(daily.error, M.dailyFailed)}</Alert> : null}
      {weekly.isError ? <Alert>{errorMessage(weekly.error, M.weeklyFailed)}</Alert> : null}
    </section>
  )
}
