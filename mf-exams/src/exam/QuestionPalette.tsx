import { Button } from '@portal/ui-kit'
import { paletteLabel, type QuestionState } from './palette.ts'

/**
 * Every question of the attempt as a button (answered / unanswered / marked, the current one
 * shown), to jump to any; the spec's list of marked questions; Review and Submit.
 */
export const QuestionPalette = ({
  states,
  current,
  onJump,
  onReview,
  disabled,
}: {
  states: readonly QuestionState[]
  /** The question on screen, or null on the review screen. */
  current: number | null
  onJump: (index: number) => void
  onReview: () => void
  disabled: boolean
}) => {
  const marked = states.filter((s) => s.marked)
  return (
    <nav className="pk-card pk-stack pk-palette pk-gap-l" aria-labelledby="palette-title">
      <h2 id="palette-title" className="pk-fs-16 pk-m0">
        Questions
      </h2>
      <ol className="pk-palette__grid">
        {states.map((s) => (
          <li key={s.index}>
            <button
              type="button"
              className={`pk-palette__item${s.answered ? ' is-answered' : ''}${s.marked ? ' is-marked' : ''}`}
              aria-label={paletteLabel(s)}
              aria-current={s.index === current ? 'step' : undefined}
              disabled={disabled}
              onClick={() => onJump(s.index)}
            >
              {s.index + 1}
              {s.marked ? <span aria-hidden="true">⚑</span> : null}
            </button>
          </li>
        ))}
      </ol>
      <ul className="pk-palette__legend" aria-label="Legend">
        <li>
          <span className="pk-palette__item is-answered" aria-hidden="true" /> Answered
        </li>
        <li>
          <span className="pk-palette__item" aria-hidden="true" /> Unanswered
        </li>
        <li>
          <span aria-hidden="true">⚑</span> Marked for review
        </li>
      </ul>
      <section className="pk-stack pk-gap-m" aria-labelledby="marked-title">
        <h3 id="marked-title" className="pk-fs-15 pk-m0">
          Marked for Review ({marked.length})
        </h3>
        {marked.length === 0 ? (
          <p className="pk-muted pk-m0 pk-fs-14">No questions marked. Use Mark for Review to come back to a question.</p>
        ) : (
          <ul className="pk-row pk-list-none pk-m0 pk-p0 pk-gap-s">
            {marked.map((s) => (
              <li key={s.index}>
                <Button size="small" variant="secondary" disabled={disabled} onClick={() => onJump(s.index)}>
                  Go to question {s.index + 1}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div>
        <Button onClick={onReview} disabled={disabled}>
          Review and Submit
        </Button>
      </div>
    </nav>
  )
}
