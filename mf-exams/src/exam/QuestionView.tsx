import type { AttemptQuestion } from '@portal/contracts'
import { useEffect, useRef } from 'react'
import { toggleOption, type Draft } from './answers.ts'

interface Props {
  question: AttemptQuestion
  index: number
  total: number
  draft: Draft
  onChange: (draft: Draft) => void
}

/** One question: a radio group (multiple_choice) or checkboxes (multi_select) in a fieldset. */
export const QuestionView = ({ question, index, total, draft, onChange }: Props) => {
  const headingRef = useRef<HTMLHeadingElement>(null)
  // Moving between questions puts focus on the new question so keyboard and screen-reader users follow.
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    headingRef.current?.focus()
  }, [index])
  const multi = question.question_type === 'multi_select'
  const name = `question-${question.id}`
  return (
    <fieldset className="pk-stack" aria-labelledby={`${name}-title`} style={{ border: 'none', margin: 0, padding: 0, minWidth: 0 }}>
      <h2 ref={headingRef} id={`${name}-title`} tabIndex={-1} style={{ fontSize: '1.0625rem' }}>
        <span className="pk-muted" style={{ display: 'block', fontSize: '.875rem', fontWeight: 600 }}>
          Question {index + 1} of {total}
          {question.subject_category ? ` · ${question.subject_category}` : ''}
        </span>
        {question.question_text}
      </h2>
      {multi ? <p className="pk-muted" style={{ margin: 0 }}>Select all that apply.</p> : null}
      <div className="pk-stack" style={{ gap: '.5rem' }}>
        {question.options.map((opt, i) => {
          const checked = multi ? Array.isArray(draft) && draft.includes(i) : draft === i
          return (
            <label key={i} className="pk-check pk-option" style={{ fontWeight: 500, fontSize: '1rem' }}>
              <input
                type={multi ? 'checkbox' : 'radio'}
                name={name}
                value={i}
                checked={checked}
                onChange={() => onChange(multi ? toggleOption(draft, i) : i)}
              />
              <span>{opt}</span>
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
