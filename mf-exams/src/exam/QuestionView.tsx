import type { AttemptQuestion } from '@portal/contracts'
import { useEffect, useRef } from 'react'
import { toggleOption, type Draft } from './answers.ts'

interface Props {
  question: AttemptQuestion
  index: number
  total: number
  draft: Draft
  onChange: (draft: Draft) => void
  /** Grows with every move to a question (Previous, Next, the palette, the review): focus goes to its heading. */
  focusKey: number
}

/** One question: a radio group (multiple_choice) or checkboxes (multi_select) in a fieldset. */
export const QuestionView = ({ question, index, total, draft, onChange, focusKey }: Props) => {
  const headingRef = useRef<HTMLHeadingElement>(null)
  // Moving to a question puts focus on it so keyboard and screen-reader users follow (the sticky
  // bar must not cover it: scroll-margin in the styles).
  useEffect(() => {
    if (focusKey > 0) headingRef.current?.focus()
  }, [focusKey])
  const multi = question.question_type === 'multi_select'
  const name = `question-${question.id}`
  return (
    <fieldset className="pk-stack pk-border-0 pk-m0 pk-p0 pk-min-w0" aria-labelledby={`${name}-title`}>
      <h2 ref={headingRef} id={`${name}-title`} tabIndex={-1} className="pk-exam-question-title pk-fs-17">
        <span className="pk-muted pk-block pk-fs-14 pk-fw-semibold">
          Question {index + 1} of {total}
          {question.subject_category ? ` · ${question.subject_category}` : ''}
        </span>
        {question.question_text}
      </h2>
      {multi ? <p className="pk-muted pk-m0">Select all that apply.</p> : null}
      <div className="pk-stack pk-gap-m">
        {question.options.map((opt, i) => {
          const checked = multi ? Array.isArray(draft) && draft.includes(i) : draft === i
          return (
            <label key={i} className="pk-check pk-option pk-fw-medium pk-fs-16">
              <input type={multi ? 'checkbox' : 'radio'} name={name} value={i} checked={checked} onChange={() => onChange(multi ? toggleOption(draft, i) : i)} />
              <span>{opt}</span>
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
