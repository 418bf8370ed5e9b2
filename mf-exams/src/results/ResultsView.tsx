import type { ExamSubmissionResult } from '@portal/contracts'
import { Button } from '@portal/ui-kit'
import { useEffect, useRef } from 'react'
import { NOT_ANSWERED, formatPercent, isWeighted, reviewOptions, sectionTone, weightText, weightedScoreExplanation } from './results.ts'

const MULTI_NOTE = 'Multi-select questions require all correct options and no incorrect ones.'

/** The results of one submitted attempt (learner §2 Exam results). */
export const ResultsView = ({ result, onDone }: { result: ExamSubmissionResult; onDone: () => void }) => {
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => headingRef.current?.focus(), [])
  const hasMulti = result.question_results.some((q) => q.question_type === 'multi_select')
  const verdict = result.passed ? 'PASSED' : 'FAILED'
  const weighted = isWeighted(result)
  const explanation = weightedScoreExplanation(result)
  return (
    <div className="pk-stack pk-max-w820 pk-mx-auto pk-w-full">
      <section className="pk-card pk-stack" aria-labelledby="results-title">
        <h1 id="results-title" ref={headingRef} tabIndex={-1}>
          Exam Results: {result.exam_name}
        </h1>
        <div className="pk-row pk-gap-xxl">
          <div>
            <div className="pk-muted pk-fs-13 pk-fw-semibold">Your Score</div>
            <div className="pk-score">{formatPercent(result.score)}</div>
          </div>
          <span className={`pk-verdict pk-tone--${result.passed ? 'green' : 'red'}`}>{verdict}</span>
        </div>
        <dl className="pk-exam-facts">
          <div>
            <dt>Correct Answers</dt>
            <dd>
              {result.correct_answers} / {result.total_questions}
            </dd>
          </div>
          <div>
            <dt>Pass Score</dt>
            <dd>{result.pass_score}%</dd>
          </div>
          <div>
            <dt>Attempt</dt>
            <dd>{result.attempt_number}</dd>
          </div>
        </dl>
        {explanation ? <p className="pk-alert pk-alert--info pk-m0">{explanation}</p> : null}
        <div>
          <Button onClick={onDone}>Return to Dashboard</Button>
        </div>
      </section>

      {result.section_scores.length > 0 ? (
        <section className="pk-card pk-stack" aria-labelledby="sections-title">
          <h2 id="sections-title">Scores by Category</h2>
          <ul className="pk-stack pk-list-none pk-m0 pk-p0">
            {result.section_scores.map((s) => {
              const { tone, label } = sectionTone(s.section_score)
              return (
                <li key={s.section_name} className="pk-stack pk-gap-xs">
                  <div className="pk-row pk-between">
                    <strong>{s.section_name}</strong>
                    <span>
                      {formatPercent(s.section_score)} ({s.correct_answers}/{s.questions_in_section}){' '}
                      <span className={`pk-verdict pk-tone--${tone}`} style={{ fontSize: '.75rem', padding: '.0625rem .5rem' }}>
                        {label}
                      </span>
                    </span>
                  </div>
                  <div className={`pk-bar pk-bar--${tone}`} aria-hidden="true">
                    <span style={{ width: `${Math.max(0, Math.min(100, s.section_score))}%` }} />
                  </div>
                </li>
              )
            })}
          </ul>
        </section>
      ) : null}

      <section className="pk-card pk-stack" aria-labelledby="review-title">
        <h2 id="review-title">Question Review</h2>
        {hasMulti ? <p className="pk-alert pk-alert--info pk-m0">{MULTI_NOTE}</p> : null}
        <ol className="pk-review">
          {result.question_results.map((q, i) => {
            const options = reviewOptions(q)
            return (
              <li key={q.question_id} className={q.is_correct ? 'is-correct' : 'is-incorrect'}>
                <h3 className="pk-fs-16 pk-mb-s">
                  <span aria-hidden="true">{q.is_correct ? '✓ ' : '✗ '}</span>
                  Question {i + 1}: {q.question_text}
                </h3>
                <p className="pk-m0">
                  <strong>{q.is_correct ? 'Correct' : 'Incorrect'}</strong>
                  {q.question_type === 'multi_select' ? <span className="pk-badge">Multi-select</span> : null}
                  {weighted ? <span className="pk-badge">{weightText(q.weight)}</span> : null}
                </p>
                {options.some((o) => o.chosen) ? null : <p className="pk-mt-xs">{NOT_ANSWERED}</p>}
                {/* The options as the learner saw them (each attempt has its own order), what they chose and what was right. */}
                <ul className="pk-review-options" aria-label={`Options of question ${i + 1} as you saw them`}>
                  {options.map((o, j) => (
                    <li key={j} className={[o.chosen ? 'is-chosen' : '', o.correct ? 'is-right' : ''].filter(Boolean).join(' ') || undefined}>
                      <span>{o.text}</span>
                      {o.chosen ? <span className="pk-badge">Your answer</span> : null}
                      {o.correct ? <span className="pk-badge pk-badge--right">Correct answer</span> : null}
                    </li>
                  ))}
                </ul>
              </li>
            )
          })}
        </ol>
      </section>
    </div>
  )
}
