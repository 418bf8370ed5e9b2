import type { LeaveIntent } from '@portal/ui-kit'
import { ConfirmDialog } from '@portal/ui-kit'
import { durationText } from './timer.ts'

/** The Exit button, or a way out the shell holds (a link, browser Back, Logout). */
export type LeaveAsk = { kind: 'exit' } | LeaveIntent

const WORDS: Record<LeaveAsk['kind'], { title: string; confirm: string }> = {
  exit: { title: 'Exit Exam?', confirm: 'Exit Exam' },
  navigate: { title: 'Leave the Exam?', confirm: 'Leave Exam' },
  logout: { title: 'Log Out During the Exam?', confirm: 'Log Out' },
}

/** The deadline as this browser's clock shows it, e.g. "14:32". */
const clockTime = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

/**
 * What really happens on leaving a running attempt: it stays open on the server and its clock
 * keeps running until the deadline; the answers saved are kept and graded then.
 */
export const LeaveDialog = ({
  ask,
  deadlineMs,
  secondsLeft,
  unsaved,
  attemptsAllowed,
  onStay,
  onLeave,
}: {
  ask: LeaveAsk | null
  deadlineMs: number
  secondsLeft: number
  /** The last save failed: what was not saved is lost on leaving. */
  unsaved: boolean
  /** A final exam's limit, else null. */
  attemptsAllowed: number | null
  onStay: () => void
  onLeave: () => void
}) => {
  const words = WORDS[ask?.kind ?? 'exit']
  return (
    <ConfirmDialog open={ask !== null} title={words.title} confirmLabel={words.confirm} cancelLabel="Continue Exam" onCancel={onStay} onConfirm={onLeave}>
      <div className="pk-stack pk-gap-m">
        <p className="pk-m0">
          This attempt stays open and its clock keeps running until {clockTime(deadlineMs)} ({durationText(secondsLeft)} from now), whether or not you are here.
        </p>
        <p className="pk-m0">
          {unsaved ? 'Your latest answers could not be saved yet (connection problem): answers not saved are lost if you leave.' : 'Your answers so far are saved.'} Come back to
          this exam before then to resume it; at the deadline, the saved answers are submitted for you.
          {attemptsAllowed !== null ? ` It counts as one of your ${attemptsAllowed} attempts.` : ''}
        </p>
      </div>
    </ConfirmDialog>
  )
}
