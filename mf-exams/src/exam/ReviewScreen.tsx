import { Alert, Button } from '@portal/ui-kit'
import { useEffect, useRef } from 'react'
import { reviewLists, type QuestionState } from './palette.ts'

const JumpList = ({ title, id, indexes, empty, onJump }: { title: string; id: string; indexes: number[]; empty: string; onJump: (i: number) => void }) => (
  <section className="pk-stack pk-gap-m" aria-labelledby={id}>
    <h3 id={id} className="pk-fs-16 pk-m0">
      {title} ({indexes.length})
    </h3>
    {indexes.length === 0 ? (
      <p className="pk-muted pk-m0">{empty}</p>
    ) : (
      <ul className="pk-row pk-list-none pk-m0 pk-p0 pk-gap-s">
        {indexes.map((i) => (
          <li key={i}>
            <Button size="small" variant="secondary" onClick={() => onJump(i)}>
              Go to question {i + 1}
            </Button>
          </li>
        ))}
      </ul>
    )}
  </section>
)

/** Before the final submit: what is unanswered and what is marked, each a way back to the question. */
export const ReviewScreen = ({
  states,
  submitting,
  error,
  onJump,
  onBack,
  onSubmit,
}: {
  states: readonly QuestionState[]
  submitting: boolean
  error: string | null
  onJump: (index: number) => void
  onBack: () => void
  onSubmit: () => void
}) => {
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => headingRef.current?.focus(), [])
  const { unanswered, marked } = reviewLists(states)
  const answered = states.length - unanswered.length
  return (
    <section className="pk-card pk-stack" aria-labelledby="review-title">
      <h2 id="review-title" ref={headingRef} tabIndex={-1} className="pk-fs-20 pk-m0">
        Review Your Answers
      </h2>
      <p className="pk-m0">
        {answered} of {states.length} questions answered.
        {unanswered.length > 0 ? ' Unanswered questions count as wrong.' : ''}
      </p>
      <JumpList title="Unanswered" id="review-unanswered" indexes={unanswered} empty="Every question is answered." onJump={onJump} />
      <JumpList title="Marked for Review" id="review-marked" indexes={marked} empty="No questions are marked for review." onJump={onJump} />
      {error ? <Alert>{error}</Alert> : null}
      <div className="pk-row pk-between">
        <Button variant="secondary" onClick={onBack} disabled={submitting}>
          Back to Questions
        </Button>
        <Button onClick={onSubmit} aria-disabled={submitting || undefined}>
          {submitting ? 'Submitting...' : 'Submit Exam'}
        </Button>
      </div>
    </section>
  )
}
