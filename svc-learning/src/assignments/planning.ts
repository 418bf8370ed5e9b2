import { firstCycle, nextCycle, type AssignmentPreview, type DueSpec, type RecurrenceSpec } from '@portal/contracts'

/**
 * What a save of a rule does to its people, as plain data (issue 24): the dry run shows it, the save
 * applies it, from the same function over the same rows (the save's rows locked), so the dry run
 * says what the save does. Completions are facts: a plan never changes or drops one; it moves the due
 * dates of cycles not completed, the next cycle of completed recurring ones, adds and removes people.
 */

export interface RuleSpec {
  due: DueSpec
  recurrence: RecurrenceSpec
}

/** A person's stored row of the rule (removed ones included). */
export interface StoredPerson {
  user_id: string
  assigned_on: string
  due_on: string
  opens_on: string | null
  completed_on: string | null
  next_due_on: string | null
  next_opens_on: string | null
  cycle: number
  removed: boolean
  /** The completion of the cycle before (recurring rules past their first cycle). */
  previous_completed_on: string | null
  /** The latest completion recorded for the row, any cycle. */
  last_completed_on: string | null
  name: string | null
  email: string | null
}

/** A person the audience takes now, with the facts their due date may follow. */
export interface Candidate {
  id: string
  name: string
  email: string
  hire_date: string | null
  /** The latest expiry of the person's certification of the type a certification recurrence follows. */
  cert_expires_on: string | null
  /** When the person last completed the item (course completed, exam passed), as the company's day and instant. */
  prior_completed_on: string | null
  prior_completed_at: Date | null
}

export interface CycleDates {
  due_on: string
  opens_on: string | null
  next_due_on: string | null
  next_opens_on: string | null
}

/** A person added (new row) or back (a removed row), with their first dates and maybe a completion from before. */
export interface Arrival extends CycleDates {
  user_id: string
  assigned_on: string
  /** The cycle the row is in (a row back keeps its count, so its kept completions stay apart). */
  cycle: number
  /** A completion of the item the rule counts (made before the rule reached them). */
  completion: { completed_on: string; completed_at: Date; on_time: true } | null
  returning: boolean
}

export interface Move {
  user_id: string
  completed: boolean
  dates: CycleDates
  current_due_on: string | null
  new_due_on: string | null
}

export interface Plan {
  arrivals: Arrival[]
  moves: Move[]
  removals: string[]
  unchanged: number
  /** Every person with a change: added, removed, moved dates. */
  changes: AssignmentPreview['people']
}

/**
 * The expiry that renews a certification recurrence after a completion of a cycle due on `dueOn`:
 * the latest known, when later than both (the cycle's own due date is the expiry it renewed).
 */
const renewalAfter = (candidate: Pick<Candidate, 'cert_expires_on'> | undefined, completedOn: string, dueOn: string) =>
  candidate?.cert_expires_on && candidate.cert_expires_on > completedOn && candidate.cert_expires_on > dueOn ? candidate.cert_expires_on : null

/** The next cycle after a completion on `completedOn` of a cycle due on `dueOn` (null fields without one). */
function nextOf(spec: RuleSpec, completedOn: string, dueOn: string, person: Candidate | undefined): Pick<CycleDates, 'next_due_on' | 'next_opens_on'> {
  const next = nextCycle(spec.recurrence, completedOn, renewalAfter(person, completedOn, dueOn))
  return { next_due_on: next?.next_due_on ?? null, next_opens_on: next?.next_opens_on ?? null }
}

/** The first cycle of a person assigned on `assignedOn`. */
const firstOf = (spec: RuleSpec, assignedOn: string, person: Candidate) =>
  firstCycle(spec.due, spec.recurrence, { assigned_on: assignedOn, hire_date: person.hire_date, certification_expires_on: person.cert_expires_on })

/**
 * Dates of a person arriving on `today` (or coming back): the first cycle, and when they completed
 * the item before, that completion counts for it, on time (its due date no earlier than the
 * completion), with the next cycle after it for recurring rules.
 */
function arrival(spec: RuleSpec, person: Candidate, today: string, back: StoredPerson | undefined): Arrival {
  const first = firstOf(spec, today, person)
  const cycle = back?.cycle ?? 1
  // A row back keeps its cycles: only a completion later than the last one it recorded counts.
  const prior = person.prior_completed_on !== null && (back?.last_completed_on == null || person.prior_completed_on > back.last_completed_on) ? person.prior_completed_on : null
  if (prior !== null) {
    const dueOn = first.due_on < prior ? prior : first.due_on
    return {
      user_id: person.id,
      assigned_on: today,
      cycle,
      due_on: dueOn,
      opens_on: first.opens_on !== null && first.opens_on <= dueOn ? first.opens_on : null,
      ...nextOf(spec, prior, dueOn, person),
      completion: { completed_on: prior, completed_at: person.prior_completed_at ?? new Date(`${prior}T12:00:00Z`), on_time: true },
      returning: back !== undefined,
    }
  }
  return { user_id: person.id, assigned_on: today, cycle, ...first, next_due_on: null, next_opens_on: null, completion: null, returning: back !== undefined }
}

/**
 * The dates a stored row should have under `spec`: a cycle not completed follows the rule (the first
 * cycle from its assignment day; a later one from the previous completion); a completed cycle keeps
 * its due date (its completion was judged against it) and gets the next cycle the rule gives.
 */
export function expectedDates(spec: RuleSpec, row: StoredPerson, person: Candidate | undefined): CycleDates {
  if (row.completed_on !== null) return { due_on: row.due_on, opens_on: row.opens_on, ...nextOf(spec, row.completed_on, row.due_on, person) }
  if (row.cycle > 1) {
    if (row.previous_completed_on === null) return { due_on: row.due_on, opens_on: row.opens_on, next_due_on: null, next_opens_on: null }
    const next = nextCycle(spec.recurrence, row.previous_completed_on, renewalAfter(person, row.previous_completed_on, row.previous_completed_on))
    // No longer recurring, or waiting for a renewed certification: the cycle keeps its dates.
    return next
      ? { due_on: next.next_due_on, opens_on: next.next_opens_on, next_due_on: null, next_opens_on: null }
      : { due_on: row.due_on, opens_on: row.opens_on, next_due_on: null, next_opens_on: null }
  }
  if (person === undefined) return { due_on: row.due_on, opens_on: row.opens_on, next_due_on: null, next_opens_on: null }
  return { ...firstOf(spec, row.assigned_on, person), next_due_on: null, next_opens_on: null }
}

const sameDates = (a: CycleDates, b: CycleDates) => a.due_on === b.due_on && a.opens_on === b.opens_on && a.next_due_on === b.next_due_on && a.next_opens_on === b.next_opens_on

/** The date a person works towards as the dry run names it: the due date of a cycle not completed, else the next one. */
const shownDue = (completed: boolean, d: CycleDates) => (completed ? d.next_due_on : d.due_on)

/**
 * The plan of a save: `audience` is who the rule takes now, `stored` every row it has (removed
 * ones too), `today` the company's day. Changes are listed added, removed, then moved dates.
 */
export function planRule(spec: RuleSpec, audience: Candidate[], stored: StoredPerson[], today: string): Plan {
  const rows = new Map(stored.map((r) => [r.user_id, r]))
  const taken = new Set<string>()
  const arrivals: Arrival[] = []
  const moves: Move[] = []
  let unchanged = 0
  const added: Plan['changes'] = []
  const moved: Plan['changes'] = []
  for (const person of audience) {
    taken.add(person.id)
    const row = rows.get(person.id)
    if (!row || row.removed) {
      // A row back with a completion kept: that completion stands, the rule gives its next cycle.
      if (row && row.completed_on !== null) {
        const dates = expectedDates(spec, row, person)
        arrivals.push({ user_id: person.id, assigned_on: row.assigned_on, cycle: row.cycle, ...dates, completion: null, returning: true })
        added.push({ user_id: person.id, name: person.name, email: person.email, change: 'added', current_due_on: null, new_due_on: shownDue(true, dates) ?? dates.due_on })
        continue
      }
      const a = arrival(spec, person, today, row)
      arrivals.push(a)
      added.push({
        user_id: person.id,
        name: person.name,
        email: person.email,
        change: 'added',
        current_due_on: null,
        new_due_on: a.completion ? (a.next_due_on ?? a.due_on) : a.due_on,
      })
      continue
    }
    const completed = row.completed_on !== null
    const now: CycleDates = { due_on: row.due_on, opens_on: row.opens_on, next_due_on: row.next_due_on, next_opens_on: row.next_opens_on }
    const dates = expectedDates(spec, row, person)
    if (sameDates(now, dates)) {
      unchanged++
      continue
    }
    const move = { user_id: person.id, completed, dates, current_due_on: shownDue(completed, now), new_due_on: shownDue(completed, dates) }
    moves.push(move)
    moved.push({ user_id: person.id, name: person.name, email: person.email, change: 'due_changed', current_due_on: move.current_due_on, new_due_on: move.new_due_on })
  }
  const removals: string[] = []
  const removed: Plan['changes'] = []
  for (const row of stored) {
    if (row.removed || taken.has(row.user_id)) continue
    removals.push(row.user_id)
    removed.push({
      user_id: row.user_id,
      name: row.name ?? '',
      email: row.email ?? '',
      change: 'removed',
      current_due_on: shownDue(row.completed_on !== null, row) ?? row.due_on,
      new_due_on: null,
    })
  }
  return { arrivals, moves, removals, unchanged, changes: [...added, ...removed, ...moved] }
}

/** The dry run's answer from a plan: counts of everyone, the first people with a change. */
export function previewOf(plan: Plan, listLimit: number): AssignmentPreview {
  return {
    total: plan.arrivals.length + plan.moves.length + plan.unchanged,
    added: plan.arrivals.length,
    removed: plan.removals.length,
    due_changed: plan.moves.length,
    unchanged: plan.unchanged,
    people: plan.changes.slice(0, listLimit),
  }
}
