import type { Exam, QuestionType } from '@portal/contracts'
import { Alert, Button, LiveRegion, Select, Spinner, TextField, focusFirstInvalid, useAnnouncement, useFocusTargets, type FocusTargets } from '@portal/ui-kit'
import { Suspense, lazy, useReducer, useRef, useState, type Dispatch } from 'react'
import { useSaveExam } from './data/apiHooks.ts'
import {
  afterMoveQuestion,
  afterRemoveCategory,
  afterRemoveOption,
  afterRemoveQuestion,
  canMoveQuestion,
  EXAM_FOCUS,
  emptyForm,
  examFormReducer,
  formFromExam,
  questionSummary,
  saveErrorText,
  toExamInput,
  validateExamForm,
  type ExamFormAction,
  type ExamFormState,
  type ImportedQuestion,
  type QuestionDraft,
  type QuestionErrors,
} from './exam-form.ts'

// The import (and its CSV and Excel readers) loads only when Import Questions is pressed.
const ImportQuestionsDialog = lazy(() => import(/* webpackChunkName: "question-import" */ './import/ImportQuestionsDialog.tsx'))

const TYPE_OPTIONS = [
  { value: 'practice', label: 'Practice' },
  { value: 'final', label: 'Final' },
] as const
const QUESTION_TYPES = [
  { value: 'multiple_choice', label: 'Multiple choice (one answer)' },
  { value: 'multi_select', label: 'Multi-select (several answers)' },
] as const

/** What a question asks of the form besides plain edits; the form also moves focus and says what happened. */
export interface QuestionActions {
  dispatch: Dispatch<ExamFormAction>
  target: FocusTargets['target']
  remove: (q: QuestionDraft) => void
  addOption: (q: QuestionDraft) => void
  removeOption: (q: QuestionDraft, index: number) => void
  move: (q: QuestionDraft, direction: 'up' | 'down') => void
  toggle: (q: QuestionDraft) => void
}

/** One question of the pool: a line when collapsed, its fields when open (exported for its tests). */
export const QuestionEditor = ({
  q,
  n,
  state,
  expanded,
  errors,
  actions: { dispatch, target, ...actions },
}: {
  q: QuestionDraft
  n: number
  state: ExamFormState
  /** Open for editing; else a one-line summary (a long pool stays short). */
  expanded: boolean
  errors: QuestionErrors | undefined
  actions: QuestionActions
}) => {
  const categories = state.subject_categories
  const multi = q.question_type === 'multi_select'
  const correct = Array.isArray(q.correct_answer) ? q.correct_answer : [q.correct_answer]
  const titleId = `exam-q-${q.key}-title`
  const bodyId = `exam-q-${q.key}-body`
  const correctErrorId = `exam-q-${q.key}-correct-error`
  return (
    <li className="pk-stack pk-border pk-rounded pk-pad-s pk-gap-l">
      <div className="pk-question__head">
        <h4 id={titleId} className="pk-m0 pk-fs-16">
          <button
            ref={target(EXAM_FOCUS.toggleQuestion(q.key))}
            type="button"
            className="pk-question__toggle"
            aria-expanded={expanded}
            aria-controls={expanded ? bodyId : undefined}
            onClick={() => actions.toggle(q)}
          >
            {/* The arrow is drawn, not read: the name stays "Question 2", and aria-expanded says the rest. */}
            <span aria-hidden="true" className="pk-question__chevron">
              ▸
            </span>
            Question {n}
          </button>
        </h4>
        {!expanded ? (
          <span className="pk-question__summary" title={questionSummary(q)}>
            {questionSummary(q)}
          </span>
        ) : null}
        {errors ? <span className="pk-error pk-text-danger pk-fs-13 pk-fw-semibold">Has errors</span> : null}
        <div className="pk-row pk-gap-s">
          {(['up', 'down'] as const).map((direction) => (
            <Button
              key={direction}
              ref={target(EXAM_FOCUS.moveQuestion(q.key, direction))}
              size="small"
              variant="secondary"
              aria-label={`Move ${direction} Question ${n}`}
              disabled={!canMoveQuestion(state, q.key, direction)}
              onClick={() => actions.move(q, direction)}
            >
              {direction === 'up' ? 'Move Up' : 'Move Down'}
            </Button>
          ))}
          <Button ref={target(EXAM_FOCUS.removeQuestion(q.key))} size="small" variant="danger" onClick={() => actions.remove(q)}>
            Remove Question {n}
          </Button>
        </div>
      </div>
      {expanded ? (
        <fieldset id={bodyId} aria-labelledby={titleId} className="pk-stack pk-border-0 pk-p0 pk-m0 pk-gap-l pk-min-w0">
          <TextField
            ref={target(EXAM_FOCUS.questionText(q.key))}
            label="Question Text"
            value={q.question_text}
            error={errors?.text}
            onChange={(e) => dispatch({ type: 'questionText', key: q.key, value: e.target.value })}
          />
          <div className="pk-grid">
            <Select
              label="Question Type"
              options={QUESTION_TYPES}
              value={q.question_type}
              onChange={(e) => dispatch({ type: 'questionType', key: q.key, value: e.target.value as QuestionType })}
            />
            <Select
              label="Subject Category"
              placeholder="No category"
              options={categories.map((c) => ({ value: c, label: c }))}
              value={q.subject_category}
              onChange={(e) => dispatch({ type: 'questionCategory', key: q.key, value: e.target.value })}
            />
            <TextField
              label="Category Weight"
              type="number"
              min={0.1}
              step={0.1}
              value={String(q.category_weight)}
              onChange={(e) => dispatch({ type: 'questionWeight', key: q.key, value: Number(e.target.value) || 1 })}
            />
          </div>
          <fieldset className="pk-stack pk-border-0 pk-p0 pk-m0 pk-gap-m pk-min-w0">
            <legend className="pk-fw-semibold pk-fs-14 pk-mb-xs">Answer choices ({multi ? 'tick every correct one' : 'pick the correct one'})</legend>
            {q.options.map((opt, i) => (
              <div key={i} className="pk-row pk-items-start">
                <label className="pk-check pk-below-label-lg">
                  <input
                    type={multi ? 'checkbox' : 'radio'}
                    name={`exam-q-${q.key}-correct`}
                    checked={correct.includes(i)}
                    onChange={(e) => dispatch({ type: 'correct', key: q.key, index: i, checked: e.target.checked })}
                    aria-label={`Choice ${i + 1} is correct`}
                    aria-invalid={errors?.correct ? true : undefined}
                    aria-describedby={errors?.correct ? correctErrorId : undefined}
                  />
                  <span aria-hidden="true">Correct</span>
                </label>
                <div className="pk-flex-1 pk-min-w200">
                  <TextField
                    ref={target(EXAM_FOCUS.option(q.key, i))}
                    label={`Option ${i + 1}`}
                    value={opt}
                    error={errors?.options[i]}
                    onChange={(e) => dispatch({ type: 'optionText', key: q.key, index: i, value: e.target.value })}
                  />
                </div>
                <Button
                  ref={target(EXAM_FOCUS.removeOption(q.key, i))}
                  size="small"
                  variant="secondary"
                  className="pk-below-label"
                  aria-label={`Remove choice ${i + 1}`}
                  disabled={q.options.length <= 2}
                  onClick={() => actions.removeOption(q, i)}
                >
                  Remove
                </Button>
              </div>
            ))}
            {errors?.correct ? (
              <p className="pk-field">
                <span id={correctErrorId} className="pk-error">
                  {errors.correct}
                </span>
              </p>
            ) : null}
            <div>
              <Button size="small" variant="secondary" onClick={() => actions.addOption(q)}>
                Add Option
              </Button>
            </div>
            <label className="pk-check">
              <input type="checkbox" checked={q.keep_option_order} onChange={(e) => dispatch({ type: 'keepOptionOrder', key: q.key, value: e.target.checked })} />
              Keep option order (e.g. 'All of the above')
            </label>
          </fieldset>
        </fieldset>
      ) : null}
    </li>
  )
}

/** Add New Exam / Edit Exam (admin §3-§5). */
export const ExamForm = ({ exam, onDone, onCancel }: { exam: Exam | null; onDone: () => void; onCancel: () => void }) => {
  const [state, dispatch] = useReducer(examFormReducer, exam, (e) => (e ? formFromExam(e) : emptyForm()))
  const errors = validateExamForm(state)
  const [announcement, announce] = useAnnouncement()
  const { target, focusLater } = useFocusTargets()
  const formRef = useRef<HTMLFormElement>(null)
  // Questions open for editing: new ones are; a stored exam's open collapsed, each a line.
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set())
  const [importing, setImporting] = useState(false)
  const expand = (keys: Iterable<number>, open = true) =>
    setExpanded((e) => {
      const next = new Set(e)
      for (const k of keys) {
        if (open) next.add(k)
        else next.delete(k)
      }
      return next
    })
  const save = useSaveExam(exam, {
    onSuccess: onDone,
    // Focus on the message that says what failed (read at once, and the fields are above it).
    onError: () => focusLater(EXAM_FOCUS.summary),
  })
  const submit = () => {
    dispatch({ type: 'submitted' })
    const all = validateExamForm(state, true)
    if (all.count > 0) {
      // Questions in error open, so their fields can take focus and show what is wrong.
      expand(Object.keys(all.questions).map(Number))
      // The first field in error says what is wrong; else the message area (once the errors show).
      requestAnimationFrame(() => focusFirstInvalid(formRef.current) || focusLater(EXAM_FOCUS.summary))
      return
    }
    save.mutate(toExamInput(state))
  }
  /** Runs a removal and sends focus where `after` says (the removed control is gone), saying what went. */
  const removing = (action: ExamFormAction, after: { focus: string[]; message: string }) => {
    dispatch(action)
    focusLater(...after.focus)
    announce(after.message)
  }
  const questionActions: QuestionActions = {
    dispatch,
    target,
    remove: (q) => removing({ type: 'removeQuestion', key: q.key }, afterRemoveQuestion(state, q.key)),
    removeOption: (q, index) => removing({ type: 'removeOption', key: q.key, index }, afterRemoveOption(state, q.key, index)),
    addOption: (q) => {
      dispatch({ type: 'addOption', key: q.key })
      focusLater(EXAM_FOCUS.option(q.key, q.options.length))
    },
    move: (q, direction) => {
      const after = afterMoveQuestion(state, q.key, direction)
      if (!after) return
      dispatch({ type: 'moveQuestion', key: q.key, direction })
      focusLater(after.focus)
      announce(after.message)
    },
    toggle: (q) => expand([q.key], !expanded.has(q.key)),
  }
  const importQuestions = (questions: ImportedQuestion[]) => {
    const next = examFormReducer(state, { type: 'importQuestions', questions })
    dispatch({ type: 'importQuestions', questions })
    setImporting(false)
    const added = next.subject_categories.length - state.subject_categories.length
    announce(
      `${questions.length} question${questions.length === 1 ? '' : 's'} imported; the pool has ${next.questions.length}.` +
        (added > 0 ? ` ${added} categor${added === 1 ? 'y' : 'ies'} added.` : ''),
    )
  }
  const addCategory = () => {
    const next = examFormReducer(state, { type: 'addCategory' })
    dispatch({ type: 'addCategory' })
    announce(next.categoryError ?? `Category ${next.subject_categories.at(-1)} added.`)
  }
  const title = exam ? 'Edit Exam' : 'Add New Exam'
  return (
    <form
      ref={formRef}
      className="pk-stack"
      aria-labelledby="exam-form-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (!save.isPending) submit()
      }}
    >
      <h2 id="exam-form-title">{title}</h2>
      <TextField
        label="Exam Name"
        // The form takes the list's place: focus goes into it, not back to <body>.
        autoFocus
        value={state.name}
        error={errors.name}
        onChange={(e) => dispatch({ type: 'field', field: 'name', value: e.target.value })}
      />
      <div className="pk-grid">
        <TextField
          label="Time Limit (minutes)"
          type="number"
          inputMode="numeric"
          min={1}
          max={180}
          value={state.time_limit}
          onChange={(e) => dispatch({ type: 'field', field: 'time_limit', value: e.target.value })}
          onBlur={() => dispatch({ type: 'normalise', field: 'time_limit' })}
          hint="1 to 180"
        />
        <TextField
          label="Pass Score (%)"
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          value={state.pass_score}
          onChange={(e) => dispatch({ type: 'field', field: 'pass_score', value: e.target.value })}
          onBlur={() => dispatch({ type: 'normalise', field: 'pass_score' })}
          hint="0 to 100"
        />
        <TextField
          label="Questions per Attempt"
          type="number"
          inputMode="numeric"
          min={1}
          value={state.total_questions}
          error={errors.total_questions}
          onChange={(e) => dispatch({ type: 'field', field: 'total_questions', value: e.target.value })}
          hint={`Pool: ${state.questions.length} question${state.questions.length === 1 ? '' : 's'}`}
        />
        <Select
          label="Exam Type"
          options={TYPE_OPTIONS}
          value={state.exam_type}
          onChange={(e) => dispatch({ type: 'examType', value: e.target.value === 'final' ? 'final' : 'practice' })}
        />
        {state.exam_type === 'final' ? (
          <TextField
            label="Max Attempts"
            type="number"
            inputMode="numeric"
            min={1}
            max={10}
            value={state.max_attempts}
            onChange={(e) => dispatch({ type: 'field', field: 'max_attempts', value: e.target.value })}
            onBlur={() => dispatch({ type: 'normalise', field: 'max_attempts' })}
            hint="1 to 10"
          />
        ) : null}
      </div>
      <label className="pk-check">
        <input type="checkbox" checked={state.is_assigned_to_all} onChange={(e) => dispatch({ type: 'assignAll', value: e.target.checked })} />
        Assign to all users
      </label>
      <div className="pk-stack pk-gap-xs">
        <label className="pk-check">
          <input
            type="checkbox"
            checked={state.shuffle_options}
            aria-describedby="exam-shuffle-hint"
            onChange={(e) => dispatch({ type: 'shuffleOptions', value: e.target.checked })}
          />
          Shuffle answer options in each attempt
        </label>
        <p id="exam-shuffle-hint" className="pk-muted pk-m0 pk-fs-14">
          Each attempt shows every question's options in an order of its own, so the position of the right answer tells nothing. Questions set to keep their option order are shown
          as written.
        </p>
      </div>

      <section className="pk-stack pk-gap-m" aria-labelledby="exam-categories-title">
        <h3 id="exam-categories-title" className="pk-m0">
          Subject Categories
        </h3>
        {state.subject_categories.length === 0 ? (
          <p className="pk-muted pk-m0">No categories yet.</p>
        ) : (
          <ul className="pk-row pk-list-none pk-m0 pk-p0">
            {state.subject_categories.map((c) => (
              <li key={c} className="pk-badge pk-inline-flex pk-items-center pk-gap-xs pk-ml0">
                {c}
                <Button
                  ref={target(EXAM_FOCUS.removeCategory(c))}
                  variant="link"
                  className="pk-btn--icon"
                  aria-label={`Remove category ${c}`}
                  onClick={() => removing({ type: 'removeCategory', name: c }, afterRemoveCategory(state, c))}
                >
                  ×
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="pk-row pk-items-start">
          <div className="pk-flex-1 pk-max-w360">
            <TextField
              ref={target(EXAM_FOCUS.newCategory)}
              label="New Subject Category"
              value={state.newCategory}
              error={state.categoryError}
              onChange={(e) => dispatch({ type: 'field', field: 'newCategory', value: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault()
                  addCategory()
                }
              }}
            />
          </div>
          <Button variant="secondary" className="pk-below-label-sm" onClick={addCategory}>
            Add Category
          </Button>
        </div>
      </section>

      <section className="pk-stack" aria-labelledby="exam-questions-title">
        <div className="pk-row pk-between">
          <h3 id="exam-questions-title" className="pk-m0">
            Questions ({state.questions.length})
          </h3>
          <div className="pk-row pk-gap-m">
            {state.questions.length > 0 ? (
              <>
                <Button size="small" variant="secondary" onClick={() => expand(state.questions.map((q) => q.key))}>
                  Expand All
                </Button>
                <Button size="small" variant="secondary" onClick={() => setExpanded(new Set())}>
                  Collapse All
                </Button>
              </>
            ) : null}
            <Button ref={target(EXAM_FOCUS.importQuestions)} size="small" variant="secondary" onClick={() => setImporting(true)}>
              Import Questions
            </Button>
          </div>
        </div>
        {state.questions.length === 0 ? (
          <p className="pk-muted pk-m0">The question pool is empty. Add at least as many questions as are drawn per attempt.</p>
        ) : (
          <ol className="pk-stack pk-list-none pk-m0 pk-p0">
            {state.questions.map((q, i) => (
              <QuestionEditor key={q.key} q={q} n={i + 1} state={state} expanded={expanded.has(q.key)} errors={errors.questions[q.key]} actions={questionActions} />
            ))}
          </ol>
        )}
        <div>
          <Button
            ref={target(EXAM_FOCUS.addQuestion)}
            variant="secondary"
            onClick={() => {
              dispatch({ type: 'addQuestion' })
              expand([state.nextKey])
              // Straight into the new question's text, as one would go on to type it.
              focusLater(EXAM_FOCUS.questionText(state.nextKey))
            }}
          >
            Add Question
          </Button>
        </div>
      </section>

      <div ref={target(EXAM_FOCUS.summary)} tabIndex={-1} className="pk-stack pk-gap-m">
        {errors.pool ? <Alert>{errors.pool}</Alert> : null}
        {state.submitted && errors.count > 0 && !errors.pool ? <Alert>Please correct the errors above.</Alert> : null}
        {save.isError ? <Alert>{saveErrorText(save.error, exam ? 'update' : 'create')}</Alert> : null}
      </div>
      <LiveRegion message={announcement} />
      {importing ? (
        <Suspense fallback={<Spinner label="Loading the import..." />}>
          <ImportQuestionsDialog categories={state.subject_categories} poolSize={state.questions.length} onImport={importQuestions} onClose={() => setImporting(false)} />
        </Suspense>
      ) : null}
      <div className="pk-row">
        {/* aria-disabled, not disabled: a focused button that turns disabled drops focus to <body>. */}
        <Button type="submit" aria-disabled={save.isPending || undefined}>
          {exam ? 'Update Exam' : 'Create Exam'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={save.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
