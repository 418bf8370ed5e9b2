/**
 * `reminderStagesReached(dueOn, today, plan)` of `@portal/contracts/assignment-rules` in SQL, for
 * the daily scan to compute every person's steps in one statement. `reminder-stages-sql.test.ts`
 * checks both agree over the boundary days.
 *
 * `due` and `today` are SQL date expressions, `plan` a jsonb expression of a rule's `reminders`
 * ({before_days, manager_after_days, operations_after_days}; a JSON null or a missing key: never).
 * The result is a text[] in the TypeScript order: the learner's one step (before, due or overdue),
 * then the manager's, then operations'.
 */
export function reminderStagesSql(due: string, today: string, plan: string): string {
  const before = `(${plan} ->> 'before_days')::int`
  const manager = `(${plan} ->> 'manager_after_days')::int`
  const operations = `(${plan} ->> 'operations_after_days')::int`
  return `array_remove(array[
      case when ${due} < ${today} then 'overdue'
           when ${due} = ${today} then 'due'
           when ${before} > 0 and ${due} - ${today} <= ${before} then 'before' end,
      case when ${today} - ${due} >= ${manager} then 'manager' end,
      case when ${today} - ${due} >= ${operations} then 'operations' end
    ]::text[], null)`
}
