import { addDays, type AssignmentRuleData } from '@portal/contracts'
import type { EntityManager } from '@mikro-orm/postgresql'
import { createAssignmentService } from '../assignments/index.ts'
import type { LearningContext } from '../context.ts'
import { DEMO_COURSE_TITLE } from './demo-course.ts'

const REMINDERS = { before_days: 7, manager_after_days: 7, operations_after_days: 14 }

/**
 * The demo's training that is due (issue 24), so a fresh start shows due and overdue items: the
 * demo course every year, within 30 days of hire (the demo technicians were hired years ago, so it
 * is overdue for them; the new hire, without a hire date, has 30 days); the Lockout/Tagout exam for
 * Portland within five days (due soon); the electrical safety exam for everyone within 30 days.
 * Items the demo does not hold (a course deleted, a later start) are left out.
 */
export function demoRules(ids: { course: number | null; lockout: number | null; electrical: number | null }, today: string): AssignmentRuleData[] {
  const rules: AssignmentRuleData[] = []
  if (ids.course !== null)
    rules.push({
      item_kind: 'course',
      item_id: ids.course,
      audience: { kind: 'everyone' },
      due: { kind: 'relative', days: 30, from: 'hire' },
      recurrence: { kind: 'period', months: 12, window_days: 30 },
      due_soon_days: 7,
      reminders: REMINDERS,
    })
  if (ids.lockout !== null)
    rules.push({
      item_kind: 'exam',
      item_id: ids.lockout,
      audience: { kind: 'org', branch: 'Portland', department: null },
      due: { kind: 'absolute', date: addDays(today, 5) },
      recurrence: null,
      due_soon_days: 7,
      reminders: REMINDERS,
    })
  if (ids.electrical !== null)
    rules.push({
      item_kind: 'exam',
      item_id: ids.electrical,
      audience: { kind: 'everyone' },
      due: { kind: 'relative', days: 30, from: 'assignment' },
      recurrence: null,
      due_soon_days: 7,
      reminders: REMINDERS,
    })
  return rules
}

/** The demo items' ids by their titles (null when missing). */
async function demoItemIds(em: EntityManager) {
  const one = async (sql: string, value: string) => {
    const [row] = (await em.execute(sql, [value])) as { id: number }[]
    return row ? Number(row.id) : null
  }
  return {
    course: await one('select id from courses where title = ? order by id limit 1', DEMO_COURSE_TITLE),
    lockout: await one('select id from exams where name = ? order by id limit 1', 'Lockout/Tagout Certification'),
    electrical: await one('select id from exams where name = ? order by id limit 1', 'Electrical Safety Basics'),
  }
}

/**
 * Makes the demo rules once, when no rule was ever made. The demo users may reach learning's
 * projection before or after: those there now are assigned at once, the others when they arrive
 * (identity's events), with the same due dates. Resolves with the number of rules made.
 */
export async function seedDemoRules(ctx: LearningContext): Promise<number> {
  const ids = await demoItemIds(ctx.orm.em.fork())
  return createAssignmentService(ctx).seed(demoRules(ids, ctx.today()))
}
