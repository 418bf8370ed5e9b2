import type { z } from 'zod'
import {
  ASSIGNMENT_STATE_LABELS,
  TEAM_MESSAGES,
  TIER_LABELS,
  certificationStatus,
  completionPercent,
  isCertificationValid,
  meetsRequirements,
  daysUntil,
  type EventData,
  type TeamExportQuery,
  type TeamMemberDetail,
  type TeamQuery,
  type TeamMemberRow,
  type TeamResponse,
  type PersonAssignment,
  type TierLevel,
} from '@portal/contracts'
import { auditTrail, conflict, recordEvent, type Actor } from '@portal/server-kit'
import { certificationTypeRepository } from '../certification-types/index.ts'
import { certificationRepository, statusFacts } from '../certifications/index.ts'
import { assignmentRepository, personAssignments } from '../assignments/index.ts'
import type { CertsContext } from '../context.ts'
import type { PromotionService } from '../promotions/index.ts'
import { revenueRepository, type RevenueService } from '../revenue/index.ts'
import { complianceRequirements, requireTeamMember, requireTeamViewer } from '../compliance/index.ts'
import { TechnicianEntity, technicianRepository, type TechnicianService } from '../technicians/index.ts'
import { teamRepository, type HeldSql, type TeamFilter } from './team.repository.ts'
import { USD_FORMAT, streamWorkbook, type WorkbookDownload } from '@portal/server-kit'

type OpenRequirement = EventData<'certs.reminder.requested.v1'>['openRequirements'][number]

/** How many members' certifications the export reads at a time. */
const EXPORT_BATCH = 100

const CERTIFICATION_COLUMNS = [
  { header: 'Certification', key: 'certification', width: 36 },
  { header: 'Code', key: 'code', width: 14 },
  { header: 'Tier', key: 'tier', width: 10 },
  { header: 'Status', key: 'status', width: 14 },
  { header: 'Obtained', key: 'obtained', width: 12 },
  { header: 'Expiration', key: 'expiration', width: 12 },
  { header: 'Days Until Expiry', key: 'days', width: 16 },
]

const ASSIGNMENT_COLUMNS = [
  { header: 'Assignment', key: 'item', width: 36 },
  { header: 'Type', key: 'kind', width: 8 },
  { header: 'State', key: 'state', width: 18 },
  { header: 'Due Date', key: 'due', width: 12 },
  { header: 'Completed', key: 'completed', width: 12 },
]

/** An assignment as a spreadsheet row (issue 24): its state by the contracts' label. */
const assignmentCells = (a: PersonAssignment) => ({
  item: a.item_title,
  kind: a.item_kind === 'course' ? 'Course' : 'Exam',
  state: ASSIGNMENT_STATE_LABELS[a.state],
  due: a.due_on,
  completed: a.completed_on ?? '',
})

/** A held certification as a spreadsheet row, its status by the contracts' rule. */
const certificationCells = (c: HeldSql, today: string) => ({
  certification: c.name,
  code: c.code,
  tier: TIER_LABELS[Number(c.tier_level) as TierLevel],
  status: certificationStatus(
    {
      expiration_date: c.expiration,
      verified_at: c.verified_at ? new Date(c.verified_at).toISOString() : null,
      file_name: c.file_name,
      certification: { upload_required: c.upload_required },
    },
    today,
  ),
  obtained: c.obtained ?? '',
  expiration: c.expiration ?? 'Never',
  days: c.expiration ? daysUntil(c.expiration, today) : '',
})

const filterOf = (q: Omit<z.output<typeof TeamExportQuery>, 'format'>): TeamFilter => ({
  branch: q.branch,
  department: q.department,
  search: q.search,
  overdueOnly: q.overdue === 'true',
  sort: q.sort,
  order: q.order,
})

/**
 * The team of a manager (their scope) or an admin (everyone) (learner §2 Team dashboard, Team
 * member detail; §7 `/manager/...`, `/reports/...`): the dashboard and its export, the member
 * detail, the rev/pay target, and the Quick Actions Send Reminder and Generate Report.
 */
export function createTeamService(ctx: CertsContext, deps: { technicians: TechnicianService; revenue: RevenueService; promotions: PromotionService }) {
  const { orm, now, logger } = ctx
  const today = ctx.today

  return {
    /** GET /manager/team: a page of the filtered team and the summary of all of it. */
    async team(actor: Actor, q: z.output<typeof TeamQuery>): Promise<TeamResponse> {
      const em = orm.em.fork()
      const viewer = await requireTeamViewer(em, actor)
      const { summary, rows } = await teamRepository.page(em, viewer, filterOf(q), today(), { limit: q.limit, offset: q.offset })
      return { teamMembers: rows, summary, total: summary.total_team }
    },

    /** GET /reports/certifications/export: every matching member, then each one's certifications and assignments, streamed. */
    async exportTeam(actor: Actor, q: z.output<typeof TeamExportQuery>): Promise<WorkbookDownload> {
      const em = orm.em.fork()
      const viewer = await requireTeamViewer(em, actor)
      const day = today()
      const members = teamRepository.stream(em, viewer, filterOf(q), day)
      const body = streamWorkbook(logger, 'team export', async (addSheet) => {
        const team = addSheet('Team', [
          { header: 'Technician', key: 'name', width: 28 },
          { header: 'Email', key: 'email', width: 32 },
          { header: 'Employee ID', key: 'employee_id', width: 14 },
          { header: 'Branch', key: 'branch', width: 14 },
          { header: 'Department', key: 'department', width: 14 },
          { header: 'Tier', key: 'tier', width: 10 },
          { header: 'Progress (%)', key: 'progress', width: 12 },
          { header: 'Expired', key: 'expired', width: 10 },
          { header: 'Expiring Soon', key: 'soon', width: 14 },
          { header: 'Compliant', key: 'compliant', width: 11 },
          { header: 'Overdue Assignments', key: 'overdue', width: 20 },
        ])
        // What the second sheet needs of each member, in the first sheet's order.
        const listed: Pick<TeamMemberRow, 'id' | 'name' | 'employee_id'>[] = []
        for await (const m of members) {
          listed.push({ id: m.id, name: m.name, employee_id: m.employee_id })
          await team.add({
            name: m.name,
            email: m.email,
            employee_id: m.employee_id ?? '',
            branch: m.branch ?? '',
            department: m.department ?? '',
            tier: TIER_LABELS[m.tier.current_tier],
            progress: m.completion_percentage,
            expired: m.expired_certifications,
            soon: m.expiring_soon,
            compliant: meetsRequirements(m.completion_percentage) ? 'Yes' : 'No',
            overdue: m.overdue_assignments,
          })
        }
        await team.done()
        const certs = addSheet('Certifications', [
          { header: 'Technician', key: 'name', width: 28 },
          { header: 'Employee ID', key: 'employee_id', width: 14 },
          ...CERTIFICATION_COLUMNS,
        ])
        const reader = orm.em.fork()
        for (let i = 0; i < listed.length; i += EXPORT_BATCH) {
          const batch = listed.slice(i, i + EXPORT_BATCH)
          const held = await teamRepository.heldByUser(
            reader,
            batch.map((m) => m.id),
          )
          for (const m of batch) for (const c of held.get(m.id) ?? []) await certs.add({ name: m.name, employee_id: m.employee_id ?? '', ...certificationCells(c, day) })
        }
        await certs.done()
        const assignments = addSheet('Assignments', [
          { header: 'Technician', key: 'name', width: 28 },
          { header: 'Employee ID', key: 'employee_id', width: 14 },
          ...ASSIGNMENT_COLUMNS,
        ])
        for (let i = 0; i < listed.length; i += EXPORT_BATCH) {
          const batch = listed.slice(i, i + EXPORT_BATCH)
          const assigned = await assignmentRepository.ofUsers(
            reader,
            batch.map((m) => m.id),
          )
          for (const m of batch)
            for (const a of personAssignments(assigned.get(m.id) ?? [], day)) await assignments.add({ name: m.name, employee_id: m.employee_id ?? '', ...assignmentCells(a) })
        }
        await assignments.done()
      })
      return { filename: `team-certifications-${day}.xlsx`, body }
    },

    /**
     * GET /manager/team/{userId}: the profile, the revenue overview with the leaderboard, the
     * promotion requests, the member's assignments on the company's today (issue 24). The profile's requirements and tier progress are the manager view's
     * (learner §4: "the manager view also needs an uploaded file"), as in the team table.
     */
    async detail(actor: Actor, userId: string): Promise<TeamMemberDetail> {
      const em = orm.em.fork()
      const viewer = await requireTeamViewer(em, actor)
      await requireTeamMember(em, viewer, userId)
      const [profile, overview, promotion_requests, assigned] = await Promise.all([
        deps.technicians.profile(actor, userId, { managerView: true }),
        deps.revenue.overview(orm.em.fork(), viewer, userId),
        deps.promotions.about(orm.em.fork(), userId),
        assignmentRepository.ofUsers(orm.em.fork(), [userId]),
      ])
      return { profile, ...overview, promotion_requests, assignments: personAssignments(assigned.get(userId) ?? [], today()) }
    },

    /** PUT /manager/rev-pay/{userId}: the member's rev/pay ratio target. */
    async setRevPay(actor: Actor, userId: string, ratio: number) {
      return orm.em.fork().transactional(async (em) => {
        const viewer = await requireTeamViewer(em, actor)
        const user = await requireTeamMember(em, viewer, userId)
        const before = await technicianRepository.setRevPay(em, userId, ratio, now())
        await auditTrail.record(em, actor, 'rev_pay.updated', user.name ?? userId, {
          user_id: userId,
          before,
          after: ratio,
        })
        return { message: TEAM_MESSAGES.revPayUpdated, rev_pay_ratio: ratio }
      })
    },

    /**
     * POST /manager/team/{userId}/reminder: e-mails the member (svc-notify, through the outbox) the
     * requirements that count for their tier and are not met in the manager view.
     */
    async remind(actor: Actor, userId: string) {
      return orm.em.fork().transactional(async (em) => {
        const viewer = await requireTeamViewer(em, actor)
        const user = await requireTeamMember(em, viewer, userId)
        const [tech, requirements, held] = await Promise.all([
          em.findOne(TechnicianEntity, { userId }),
          certificationTypeRepository.requirements(em),
          certificationRepository.listWithTypes(em, userId),
        ])
        const day = today()
        const byType = new Map(held.map((h) => [h.cert.certificationId, h]))
        const open: OpenRequirement[] = []
        for (const r of complianceRequirements(requirements, { currentTier: (tech?.currentTier ?? 0) as TierLevel, department: user.department ?? null })) {
          const h = byType.get(r.certification_id)
          const facts = h ? statusFacts(h.cert, h.type) : null
          const reason = !facts ? 'missing' : !isCertificationValid(facts, day) ? 'expired' : r.certification.upload_required && facts.file_name === null ? 'not_uploaded' : null
          if (reason)
            open.push({
              name: r.certification.name,
              code: r.certification.code,
              tierLevel: r.tier_level,
              reason,
              expirationDate: facts?.expiration_date ?? null,
              trainingLink: r.certification.training_link ?? null,
            })
        }
        if (open.length === 0) throw conflict(TEAM_MESSAGES.nothingToRemind, 'nothing_to_remind')
        recordEvent(em, 'certs.reminder.requested.v1', { userId, name: user.name ?? '', email: user.email ?? '', requestedByName: actor.name, openRequirements: open })
        await em.flush()
        return { message: TEAM_MESSAGES.reminderSent, open_requirements: open.length }
      })
    },

    /** GET /manager/team/{userId}/report: the member's profile facts, certifications, revenue and assignments as an .xlsx. */
    async report(actor: Actor, userId: string): Promise<WorkbookDownload> {
      const em = orm.em.fork()
      const viewer = await requireTeamViewer(em, actor)
      const user = await requireTeamMember(em, viewer, userId)
      const [profile, held, revenue, assigned] = await Promise.all([
        deps.technicians.summary(actor, userId, { managerView: true }),
        teamRepository.heldByUser(orm.em.fork(), [userId]),
        revenueRepository.ofUser(orm.em.fork(), userId),
        assignmentRepository.ofUsers(orm.em.fork(), [userId]),
      ])
      const tech = await em.findOne(TechnicianEntity, { userId })
      const day = today()
      const body = streamWorkbook(logger, 'member report', async (addSheet) => {
        const facts = addSheet('Technician', [
          { header: 'Field', key: 'field', width: 24 },
          { header: 'Value', key: 'value', width: 40 },
        ])
        const compliance = completionPercent(profile.required_met, profile.required_total)
        for (const [field, value] of [
          ['Name', user.name ?? ''],
          ['Email', user.email ?? ''],
          ['Employee ID', user.employeeId ?? ''],
          ['Branch', user.branch ?? ''],
          ['Department', user.department ?? ''],
          ['Hire Date', user.hireDate ?? ''],
          ['Tier', TIER_LABELS[profile.current_tier]],
          ['Rev/Pay Ratio', tech?.revPayRatio ?? ''],
          ['Required Certifications Met', `${profile.required_met} of ${profile.required_total} (${compliance}%)`],
          ['Expired', profile.expired],
          ['Expiring Soon', profile.expiring_soon],
          ['Report Date', day],
        ] as const)
          await facts.add({ field, value })
        await facts.done()
        const certs = addSheet('Certifications', CERTIFICATION_COLUMNS)
        for (const c of held.get(userId) ?? []) await certs.add(certificationCells(c, day))
        await certs.done()
        const months = addSheet('Revenue', [
          { header: 'Month', key: 'month', width: 10 },
          { header: 'Gross Revenue', key: 'gross', width: 16, numFmt: USD_FORMAT },
          { header: 'Pay Amount', key: 'pay', width: 14, numFmt: USD_FORMAT },
          { header: 'Rev/Pay Ratio', key: 'ratio', width: 14, numFmt: '0.00' },
        ])
        for (const r of revenue) await months.add({ month: r.month, gross: r.gross_revenue, pay: r.pay_amount ?? '', ratio: r.rev_pay_ratio ?? '' })
        await months.done()
        const assignments = addSheet('Assignments', ASSIGNMENT_COLUMNS)
        for (const a of personAssignments(assigned.get(userId) ?? [], day)) await assignments.add(assignmentCells(a))
        await assignments.done()
      })
      const who = (user.employeeId ?? user.name ?? userId)
        .replace(/[^A-Za-z0-9-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .toLowerCase()
      return { filename: `technician-report-${who || 'member'}-${day}.xlsx`, body }
    },
  }
}
export type TeamService = ReturnType<typeof createTeamService>
