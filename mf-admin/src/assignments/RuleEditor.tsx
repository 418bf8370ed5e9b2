import {
  ASSIGNMENT_LIMITS,
  ASSIGNMENT_MESSAGES,
  BRANCHES,
  DEPARTMENTS,
  type AssignmentPreview,
  type AssignmentRule,
  type AssignmentRuleData,
  type AssignmentRuleSaved,
  type User,
} from '@portal/contracts'
import { Alert, Button, DataTable, Modal, PeoplePicker, Select, Spinner, Switch, TableHead, TextField, errorMessage, focusFirstInvalid, formatDate } from '@portal/ui-kit'
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { useAdminCourses } from '../courses/index.ts'
import { useAdminExams } from '../exams/index.ts'
import { personOf, useUserGroups, useUsers } from '../users/index.ts'
import { useCertificationTypes, usePreviewRule, useSaveRule } from './data/apiHooks.ts'
import {
  CHANGE_LABELS,
  ITEM_KIND_LABELS,
  affectsText,
  changedCount,
  checkRuleForm,
  emptyRuleForm,
  formFromRule,
  localToday,
  serverFieldErrors,
  type AudienceKind,
  type FieldErrors,
  type RuleForm,
} from './rule-form.ts'

const M = ASSIGNMENT_MESSAGES

/** How many users the picker lists at once (search narrows it; the chosen ones come first). */
export const USERS_LISTED = 100

const AUDIENCES: { value: AudienceKind; label: string }[] = [
  { value: 'users', label: 'Users' },
  { value: 'group', label: 'User group' },
  { value: 'org', label: 'Branch/Department' },
  { value: 'everyone', label: 'Everyone' },
]

const byText =
  <T,>(text: (t: T) => string) =>
  (a: T, b: T) =>
    text(a).localeCompare(text(b))

/** A group of radio buttons with a visible legend. */
const RadioGroup = <V extends string>({
  legend,
  name,
  value,
  options,
  autoFocus,
  onChange,
}: {
  legend: string
  name: string
  value: V
  options: { value: V; label: string }[]
  /** The chosen option takes focus when the form opens. */
  autoFocus?: boolean
  onChange: (v: V) => void
}) => (
  <fieldset className="pk-border-0 pk-p0 pk-m0 pk-min-w0">
    <legend className="pk-fw-semibold pk-mb-xs">{legend}</legend>
    <div className="pk-row">
      {options.map((o) => (
        <label key={o.value} className="pk-check">
          <input type="radio" name={name} value={o.value} checked={value === o.value} autoFocus={autoFocus && value === o.value} onChange={() => onChange(o.value)} />
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  </fieldset>
)

/** A part of the form under its own heading. */
const Section = ({ title, children }: { title: string; children: ReactNode }) => {
  const id = useId()
  return (
    <section className="pk-stack pk-gap-m" aria-labelledby={id}>
      <h3 id={id} className="pk-m0 pk-fs-16">
        {title}
      </h3>
      {children}
    </section>
  )
}

/** A checkbox with its label. */
/** The reminder steps an admin turns on and times: the switch and its days field (named as the rule's reminders field it sets). */
const REMINDER_STEPS = [
  { on: 'remind_before', check: 'Remind the learner in advance', days: 'before_days', label: 'Days in advance' },
  { on: 'manager_copy', check: 'Copy the manager when overdue', days: 'manager_after_days', label: 'Manager copy after (days overdue)' },
  {
    on: 'operations_copy',
    check: "Send to the branch's operations address",
    days: 'operations_after_days',
    label: 'Operations after (days overdue)',
    field: 'operations_after_days',
  },
] as const

const Check = ({ label, checked, onChange }: { label: string; checked: boolean; onChange: (on: boolean) => void }) => (
  <label className="pk-check">
    <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
    <span>{label}</span>
  </label>
)

/** The searchable multi-select of non-admin users; the chosen ones are listed first. */
const UserPicker = ({
  users,
  selected,
  error,
  onChange,
}: {
  users: readonly User[]
  selected: readonly string[]
  error: string | undefined
  onChange: (ids: string[]) => void
}) => {
  const [search, setSearch] = useState('')
  const people = [...users].sort((a, b) => a.name.localeCompare(b.name)).map(personOf)
  return (
    <PeoplePicker
      legend="Users to assign"
      searchLabel="Search users"
      people={people}
      selected={selected}
      onChange={onChange}
      search={search}
      onSearch={setSearch}
      error={error}
      limit={USERS_LISTED}
      chosenFirst
    />
  )
}

interface FormProps {
  rule: AssignmentRule | null
  form: RuleForm
  setForm: (update: (f: RuleForm) => RuleForm) => void
  errors: FieldErrors
  message: string | null
  busy: boolean
  onSubmit: () => void
  onCancel: () => void
}

/** The rule form (New / Edit Assignment Rule): what, to whom, when due, how it recurs, reminders. */
const RuleFormDialog = ({ rule, form: f, setForm, errors, message, busy, onSubmit, onCancel }: FormProps) => {
  const courses = useAdminCourses()
  const exams = useAdminExams()
  const users = useUsers()
  const groups = useUserGroups()
  const followsCertification = f.recurring && f.recurrence_kind === 'certification'
  const types = useCertificationTypes(followsCertification)
  const formRef = useRef<HTMLFormElement>(null)
  // After a refused check the first field in error takes focus (its label, value and message are read).
  useEffect(() => {
    if (Object.keys(errors).length > 0) focusFirstInvalid(formRef.current)
  }, [errors])
  const set =
    <K extends keyof RuleForm>(key: K) =>
    (value: RuleForm[K]) =>
      setForm((prev) => ({ ...prev, [key]: value }))
  const text = (key: { [K in keyof RuleForm]: RuleForm[K] extends string ? K : never }[keyof RuleForm]) => ({
    value: f[key],
    onChange: (e: { target: { value: string } }) => set(key)(e.target.value as never),
  })

  const items =
    f.item_kind === 'course'
      ? (courses.data ?? []).map((c) => ({ value: String(c.id), label: c.title })).sort(byText((o) => o.label))
      : (exams.data ?? []).map((e) => ({ value: String(e.id), label: e.name })).sort(byText((o) => o.label))
  const itemsState = f.item_kind === 'course' ? courses : exams
  // An edited rule keeps its item, listed or not.
  if (rule && !items.some((o) => o.value === String(rule.item_id))) items.unshift({ value: String(rule.item_id), label: rule.item_title })
  const groupOptions = (groups.data ?? []).map((g) => ({ value: g.name, label: g.name }))
  if (f.group && !groupOptions.some((g) => g.value === f.group)) groupOptions.push({ value: f.group, label: f.group })
  const typeOptions = (types.data ?? []).map((t) => ({ value: String(t.id), label: t.is_active ? t.name : `${t.name} (inactive)` })).sort(byText((o) => o.label))
  const learners = (users.data ?? []).filter((u) => !u.is_admin)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit()
  }
  const title = rule ? 'Edit Assignment Rule' : 'New Assignment Rule'
  return (
    <Modal open title={title} onClose={onCancel}>
      <form ref={formRef} className="pk-stack pk-wide" onSubmit={submit} noValidate aria-label={title}>
        <Section title="What">
          <div className="pk-grid pk-grid-140 pk-gap-m">
            <Select
              label="Item type"
              options={[
                { value: 'course', label: 'Course' },
                { value: 'exam', label: 'Exam' },
              ]}
              value={f.item_kind}
              disabled={rule !== null}
              error={errors.item_kind}
              onChange={(e) => setForm((prev) => ({ ...prev, item_kind: e.target.value as RuleForm['item_kind'], item_id: '' }))}
            />
            <Select
              // Named by the kind chosen ("Course", "Exam"): no name of the form holds another's.
              label={ITEM_KIND_LABELS[f.item_kind]}
              placeholder={f.item_kind === 'course' ? 'Select a course' : 'Select an exam'}
              options={items}
              disabled={rule !== null}
              error={errors.item_id}
              {...text('item_id')}
            />
          </div>
          {rule ? <p className="pk-hint pk-m0">{M.itemFixed}.</p> : null}
          {itemsState.isPending ? <Spinner label={f.item_kind === 'course' ? 'Loading courses...' : 'Loading exams...'} /> : null}
          {itemsState.isError ? (
            <Alert>{errorMessage(itemsState.error, f.item_kind === 'course' ? 'Failed to load courses' : 'Failed to load exams. Please try again later.')}</Alert>
          ) : null}
        </Section>

        <Section title="Assign to">
          {/* Editing, the item cannot change: the form opens on who it assigns. */}
          <RadioGroup legend="Assign to" name="assignment-audience" value={f.audience} options={AUDIENCES} autoFocus={rule !== null} onChange={set('audience')} />
          {f.audience === 'users' ? (
            users.isPending ? (
              <>
                <Spinner label="Loading users..." />
                {errors['audience.user_ids'] ? <Alert>{errors['audience.user_ids']}</Alert> : null}
              </>
            ) : users.isError ? (
              <Alert>{errorMessage(users.error, 'Failed to fetch users')}</Alert>
            ) : (
              <UserPicker users={learners} selected={f.user_ids} error={errors['audience.user_ids']} onChange={set('user_ids')} />
            )
          ) : null}
          {f.audience === 'group' ? (
            <>
              <Select label="User group" placeholder="Select a group" options={groupOptions} error={errors['audience.group']} {...text('group')} />
              {groups.isError ? <Alert>{errorMessage(groups.error, 'Failed to fetch data')}</Alert> : null}
            </>
          ) : null}
          {f.audience === 'org' ? (
            <div className="pk-grid pk-grid-140 pk-gap-m">
              <Select label="Branch" placeholder="Any branch" options={BRANCHES.map((b) => ({ value: b, label: b }))} error={errors['audience.branch']} {...text('branch')} />
              <Select
                label="Department"
                placeholder="Any department"
                options={DEPARTMENTS.map((d) => ({ value: d, label: d }))}
                error={errors['audience.department']}
                {...text('department')}
              />
            </div>
          ) : null}
          {f.audience === 'everyone' ? <p className="pk-muted pk-m0">Every user who is not an admin, and each new user as they join.</p> : null}
          {f.audience !== 'users' && errors['audience.user_ids'] ? <Alert>{errors['audience.user_ids']}</Alert> : null}
        </Section>

        <Section title="Due">
          <RadioGroup
            legend="Due"
            name="assignment-due"
            value={f.due_kind}
            options={[
              { value: 'absolute', label: 'By date' },
              { value: 'relative', label: 'Days after' },
            ]}
            onChange={set('due_kind')}
          />
          {f.due_kind === 'absolute' ? (
            <div className="pk-max-w360">
              <TextField label="Due date" type="date" error={errors['due.date']} {...text('due_date')} />
            </div>
          ) : (
            <div className="pk-grid pk-grid-140 pk-gap-m">
              <TextField label="Days after" type="number" inputMode="numeric" min={1} max={ASSIGNMENT_LIMITS.maxOffsetDays} error={errors['due.days']} {...text('due_days')} />
              <Select
                label="After"
                options={[
                  { value: 'assignment', label: 'assignment' },
                  { value: 'hire', label: 'hire date' },
                ]}
                error={errors['due.from']}
                value={f.due_from}
                onChange={(e) => set('due_from')(e.target.value as RuleForm['due_from'])}
              />
            </div>
          )}
          <div className="pk-max-w360">
            <TextField
              label="Due soon (days)"
              type="number"
              inputMode="numeric"
              min={0}
              max={ASSIGNMENT_LIMITS.maxReminderDays}
              hint="Shown as Due soon this many days before the due date."
              error={errors.due_soon_days}
              {...text('due_soon_days')}
            />
          </div>
        </Section>

        <Section title="Recurrence">
          <Switch checked={f.recurring} text="Recurring" aria-label="Recurring" onToggle={() => set('recurring')(!f.recurring)} />
          {f.recurring ? (
            <>
              <RadioGroup
                legend="Repeats"
                name="assignment-recurrence"
                value={f.recurrence_kind}
                options={[
                  { value: 'period', label: 'Every N months after the last completion' },
                  { value: 'certification', label: "Follow a certification's expiry" },
                ]}
                onChange={set('recurrence_kind')}
              />
              {f.recurrence_kind === 'period' ? (
                <div className="pk-grid pk-grid-140 pk-gap-m">
                  <TextField
                    label="Every (months)"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={ASSIGNMENT_LIMITS.maxPeriodMonths}
                    error={errors['recurrence.months']}
                    {...text('months')}
                  />
                  <TextField
                    label="Open (days before)"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={ASSIGNMENT_LIMITS.maxWindowDays}
                    error={errors['recurrence.window_days']}
                    {...text('window_days')}
                  />
                </div>
              ) : (
                <>
                  <div className="pk-grid pk-grid-140 pk-gap-m">
                    <Select
                      label="Certification type"
                      placeholder={types.isPending ? 'Loading certification types...' : 'Select a certification type'}
                      options={typeOptions}
                      error={errors['recurrence.certification_type_id']}
                      {...text('certification_type_id')}
                    />
                    <TextField
                      label="Days before expiry"
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={ASSIGNMENT_LIMITS.maxOffsetDays}
                      error={errors['recurrence.days_before']}
                      {...text('days_before')}
                    />
                  </div>
                  {types.isError ? <Alert>{errorMessage(types.error, 'Failed to load certifications')}</Alert> : null}
                </>
              )}
            </>
          ) : null}
        </Section>

        <Section title="Reminders">
          <div className="pk-grid pk-grid-300 pk-gap-m">
            {REMINDER_STEPS.map((step) => (
              <div key={step.days} className="pk-stack pk-gap-s">
                <Check label={step.check} checked={f[step.on]} onChange={set(step.on)} />
                <TextField label={step.label} type="number" inputMode="numeric" min={1} disabled={!f[step.on]} error={errors[`reminders.${step.days}`]} {...text(step.days)} />
              </div>
            ))}
          </div>
          <p className="pk-hint pk-m0">The learner is also reminded on the due date and once it is overdue; each reminder is sent once per person and due date.</p>
        </Section>

        {message ? <Alert>{message}</Alert> : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          {/* aria-disabled, not disabled: a focused button that turns disabled drops focus to <body>. */}
          <Button type="submit" aria-disabled={busy || undefined}>
            {busy ? 'Checking...' : 'Review changes'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}

const Figure = ({ label, value }: { label: string; value: number }) => (
  <div className="pk-figure">
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
)

/** The dry run's answer: how many people the save changes and how, then Save or Back. */
const ReviewDialog = ({ preview, busy, error, onSave, onBack }: { preview: AssignmentPreview; busy: boolean; error: string | null; onSave: () => void; onBack: () => void }) => {
  const headingId = useId()
  const listed = preview.people.length
  const changed = changedCount(preview)
  return (
    <Modal open title="Review changes" onClose={onBack}>
      <div className="pk-stack pk-wide">
        <p id={headingId} className="pk-m0 pk-fs-18 pk-fw-semibold">
          {affectsText(preview)}
        </p>
        <dl className="pk-figures" aria-label="Changes">
          <Figure label="Added" value={preview.added} />
          <Figure label="Removed" value={preview.removed} />
          <Figure label="New due date" value={preview.due_changed} />
          <Figure label="Unchanged" value={preview.unchanged} />
        </dl>
        <p className="pk-muted pk-m0">
          After saving, the rule assigns {preview.total} {preview.total === 1 ? 'person' : 'people'}. Completions already recorded are kept.
        </p>
        {listed > 0 ? (
          <>
            <DataTable>
              <caption>People changed</caption>
              <TableHead columns={['Name', 'Email', 'Change', 'Current due date', 'New due date']} />
              <tbody>
                {preview.people.map((p) => (
                  <tr key={p.user_id}>
                    <th scope="row">{p.name}</th>
                    <td>{p.email}</td>
                    <td>{CHANGE_LABELS[p.change]}</td>
                    <td>{formatDate(p.current_due_on)}</td>
                    <td>{formatDate(p.new_due_on)}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
            {listed < changed ? (
              <p className="pk-hint pk-m0">
                Showing the first {listed} of {changed} people changed.
              </p>
            ) : null}
          </>
        ) : null}
        {error ? <Alert>{error}</Alert> : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onBack}>
            Back
          </Button>
          <Button onClick={busy ? undefined : onSave} aria-disabled={busy || undefined}>
            {busy ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </div>
    </Modal>
  )
}

/**
 * New or Edit Assignment Rule: the form, checked with the contracts' schema; "Review changes" asks
 * the server for a dry run and shows who the save changes; Save stores it, Back returns to the form
 * as it was. A refusal (of the dry run or the save) shows each message beside its field.
 */
export const RuleEditor = ({ rule, onClose, onSaved }: { rule: AssignmentRule | null; onClose: () => void; onSaved: (saved: AssignmentRuleSaved) => void }) => {
  const [form, setForm] = useState<RuleForm>(() => (rule ? formFromRule(rule) : emptyRuleForm()))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [message, setMessage] = useState<string | null>(null)
  const [review, setReview] = useState<{ input: AssignmentRuleData; preview: AssignmentPreview } | null>(null)
  const preview = usePreviewRule(rule?.id ?? null)
  const save = useSaveRule(rule?.id ?? null, onSaved)

  const refused = (error: unknown, fallback: string) => {
    const r = serverFieldErrors(error, form, fallback)
    setErrors(r.errors)
    setMessage(r.message)
  }
  const check = () => {
    if (preview.isPending) return
    const checked = checkRuleForm(form, rule ? null : localToday())
    setMessage(null)
    if (!checked.ok) {
      setErrors(checked.errors)
      return
    }
    setErrors({})
    preview.mutate(checked.input, {
      onSuccess: (p) => setReview({ input: checked.input, preview: p }),
      onError: (e) => refused(e, M.previewFailed),
    })
  }
  const confirm = () => {
    if (!review || save.isPending) return
    save.mutate(review.input, {
      onError: (e) => {
        const r = serverFieldErrors(e, form, M.saveFailed)
        // A refusal naming fields goes back to the form, with each message beside its field.
        if (Object.keys(r.errors).length > 0) {
          setReview(null)
          setErrors(r.errors)
          setMessage(r.message)
        }
      },
    })
  }

  if (review) {
    return (
      <ReviewDialog
        preview={review.preview}
        busy={save.isPending}
        error={save.isError ? errorMessage(save.error, M.saveFailed) : null}
        onSave={confirm}
        onBack={() => {
          save.reset()
          setReview(null)
        }}
      />
    )
  }
  return <RuleFormDialog rule={rule} form={form} setForm={setForm} errors={errors} message={message} busy={preview.isPending} onSubmit={check} onCancel={onClose} />
}
