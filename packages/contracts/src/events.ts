import { z } from 'zod'
import { Branch, Department, ManagerScope } from './identity.ts'
import { CertNotificationEvents } from './cert-notifications.ts'

/** Envelope of every event on the bus: `<domain>.<aggregate>.<past-tense-verb>.v1`. */
export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().regex(/^[a-z-]+\.[a-z-]+\.[a-z-]+\.v\d+$/),
  occurredAt: z.iso.datetime(),
  data: z.unknown(),
  /**
   * Added within v1 (optional): the W3C trace context of the request that recorded the event, so
   * its consumers continue that trace. On NATS it travels in the message's headers, not the body.
   */
  trace: z
    .object({
      traceparent: z.string().max(128),
      tracestate: z.string().max(512).optional(),
    })
    .optional(),
})
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelope>, 'data'> & { data: T }

const UserFacts = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.email(),
  isAdmin: z.boolean(),
  isManager: z.boolean(),
  managerScope: ManagerScope,
  branch: Branch.nullable(),
  department: Department.nullable(),
  userGroup: z.string().nullable(),
  /** Added within v1 (optional): profile facts the certification slice shows. */
  employeeId: z.string().nullable().optional(),
  hireDate: z.string().nullable().optional(),
  /**
   * Added within v1 (optional): raised whenever the facts a token carries stop being true (roles
   * or scope changed, password reset); a token whose `ver` claim is lower is refused. Identity
   * fills it (and employeeId, hireDate) in every user event.
   */
  authVersion: z.number().int().min(0).optional(),
})

/** A technician's certification as svc-certs' events describe it (the expiry engine and reports consume them). */
const CertificationFacts = z.object({
  /** The technician's certification (user certification id). */
  certificationId: z.number().int(),
  userId: z.uuid(),
  certificationTypeId: z.number().int(),
  code: z.string(),
  name: z.string(),
  tierLevel: z.number().int().min(0).max(3),
  obtainedDate: z.string().nullable(),
  expirationDate: z.string().nullable(),
  hasFile: z.boolean(),
})

/** One person's assignment facts (issue 24), as learning stores them; dates are `YYYY-MM-DD`. */
const AssignmentFacts = z.object({
  ruleId: z.number().int(),
  userId: z.uuid(),
  itemKind: z.enum(['course', 'exam']),
  itemId: z.number().int(),
  itemTitle: z.string(),
  assignedOn: z.iso.date(),
  dueOn: z.iso.date(),
  opensOn: z.iso.date().nullable(),
  completedOn: z.iso.date().nullable(),
  nextDueOn: z.iso.date().nullable(),
  nextOpensOn: z.iso.date().nullable(),
  exempt: z.boolean(),
  exemptReason: z.string().nullable(),
  dueSoonDays: z.number().int().min(0),
  recurring: z.boolean(),
  /** The person no longer falls under the rule (or the rule was deleted); completions are kept by learning. */
  removed: z.boolean(),
  version: z.number().int().min(1),
  at: z.iso.datetime(),
})

/** What a reminder names: the person, the assignment and the due date it is about. */
const AssignmentReminder = z.object({
  ruleId: z.number().int(),
  userId: z.uuid(),
  itemKind: z.enum(['course', 'exam']),
  itemId: z.number().int(),
  itemTitle: z.string(),
  dueOn: z.iso.date(),
  /** The company's calendar day of the scan that raised it. */
  on: z.iso.date(),
})

/**
 * A service whose user projection starts late (a new service, or a projection added to one) asks
 * identity to announce every user again, as `identity.user.updated.v1`; `consumer` names who asked.
 */
const UserBackfillRequest = z.object({ consumer: z.string().min(1).max(100) })

/** Every event schema by its subject; a consumer parses `data` with the schema of its type. */
export const Events = {
  'identity.user.registered.v1': UserFacts,
  'identity.user.updated.v1': UserFacts,
  'identity.user.deleted.v1': z.object({ userId: z.uuid() }),
  'identity.users.backfill-requested.v1': UserBackfillRequest,
  /** A user group was created (admin §7 POST /admin/user-groups); also announced again on a users backfill request. */
  'identity.group.created.v1': z.object({ groupId: z.uuid(), name: z.string(), createdAt: z.iso.datetime() }),
  'identity.verification.requested.v1': z.object({
    userId: z.uuid(),
    name: z.string(),
    email: z.email(),
    code: z.string().regex(/^\d{6}$/),
    expiresAt: z.iso.datetime(),
  }),
  /** Someone tried to register with the address of an existing account (its owner is told). */
  'identity.registration.attempted.v1': z.object({
    userId: z.uuid(),
    name: z.string(),
    email: z.email(),
    loginUrl: z.url(),
    resetUrl: z.url(),
  }),
  'identity.password-reset.requested.v1': z.object({
    userId: z.uuid(),
    name: z.string(),
    email: z.email(),
    resetUrl: z.url(),
    expiresAt: z.iso.datetime(),
  }),
  'learning.exam.submitted.v1': z.object({
    userId: z.uuid(),
    examId: z.number().int(),
    examName: z.string(),
    attemptId: z.uuid(),
    attemptNumber: z.number().int(),
    score: z.number(),
    passed: z.boolean(),
  }),
  'learning.module.completed.v1': z.object({
    userId: z.uuid(),
    courseId: z.number().int(),
    courseTitle: z.string(),
    moduleId: z.number().int(),
    moduleTitle: z.string(),
    completedAt: z.iso.datetime(),
    /** What completed it: a CompletionTrigger, `scorm-commit` when the content reported it, `scorm-rollup` when a sequenced package's root rollup did. */
    trigger: z.string(),
    /** Added within v1 (optional, issue 26): the score in percent the content reported with its completion (SCORM `score.raw`, else `score.scaled` × 100). */
    score: z.number().nullable().optional(),
    /** Added within v1 (optional, issue 26): whether the content reported it passed (true) or failed (false); null when it said neither. */
    passed: z.boolean().nullable().optional(),
  }),
  /**
   * A learner opened a module (issue 26; statements out send it as `launched`): a SCORM or cmi5
   * package's launch or a file module's, recorded with the launch's progress change.
   */
  'learning.module.launched.v1': z.object({
    userId: z.uuid(),
    courseId: z.number().int(),
    moduleId: z.number().int(),
    moduleTitle: z.string(),
    kind: z.enum(['scorm', 'cmi5', 'file']),
    launchedAt: z.iso.datetime(),
  }),
  /**
   * A learner's progress on a course after a module was completed without completing the course:
   * the mean of its modules' progress in whole percent (the admin stats' course progress).
   */
  'learning.course.progressed.v1': z.object({
    userId: z.uuid(),
    courseId: z.number().int(),
    courseTitle: z.string(),
    progress: z.number().min(0).max(100),
    at: z.iso.datetime(),
  }),
  'learning.course.completed.v1': z.object({
    userId: z.uuid(),
    courseId: z.number().int(),
    courseTitle: z.string(),
    completedAt: z.iso.datetime(),
  }),
  'learning.course.assigned.v1': z.object({
    courseId: z.number().int(),
    courseTitle: z.string(),
    /** Users newly given the course by this assignment (not those who had it already). */
    userIds: z.array(z.uuid()),
    assignedToAll: z.boolean(),
  }),
  /**
   * Issue 24: one person's assignment as it stands after any change (assigned, due date moved,
   * completed, exempted, removed); `version` grows with every change of the row, so a projection
   * keeps the highest. The state on a given day follows from these facts (`assignment-rules.ts`).
   */
  'learning.assignment.changed.v1': AssignmentFacts,
  /** A learner's reminder before the due date (`before`) or on the day (`due`); once per person, rule, due date and stage. */
  'learning.assignment.due-soon.v1': AssignmentReminder.extend({ stage: z.enum(['before', 'due']), daysLeft: z.number().int().min(0) }),
  /**
   * An overdue assignment: to the learner (`overdue`), then a copy to their managers (`manager`),
   * then to the branch's operations address (`operations`); once per person, rule, due date and stage.
   */
  'learning.assignment.overdue.v1': AssignmentReminder.extend({ stage: z.enum(['overdue', 'manager', 'operations']), daysOverdue: z.number().int().min(1) }),
  'certs.certification.added.v1': CertificationFacts,
  'certs.certification.updated.v1': CertificationFacts,
  'certs.certification.deleted.v1': z.object({
    certificationId: z.number().int(),
    userId: z.uuid(),
    certificationTypeId: z.number().int(),
  }),
  /**
   * Issue 24: a branch/department notification configuration as it now stands (created, changed,
   * activated); svc-notify routes assignment escalations to its operations address.
   */
  'certs.notification-config.changed.v1': z.object({
    configId: z.number().int(),
    branch: Branch.nullable(),
    department: Department.nullable(),
    managerEmail: z.email().nullable(),
    operationsManagerEmail: z.email().nullable(),
    isActive: z.boolean(),
    at: z.iso.datetime(),
  }),
  /** Issue 24: a technician paused or resumed their notifications (learner §4); null: not paused. */
  'certs.notification-pause.changed.v1': z.object({ userId: z.uuid(), pausedUntil: z.iso.datetime().nullable(), at: z.iso.datetime() }),
  /** An admin approved a promotion request: the technician's tier changed. */
  'certs.tier.promoted.v1': z.object({
    userId: z.uuid(),
    requestId: z.number().int(),
    fromTier: z.number().int().min(0).max(3),
    toTier: z.number().int().min(0).max(3),
    requestedBy: z.uuid(),
    approvedBy: z.uuid(),
  }),
  /**
   * A manager (or admin) asked that a technician be reminded of their open requirements: svc-notify
   * e-mails them, with a link to their profile (`/technician/profile`) on its own PUBLIC_URL.
   */
  'certs.reminder.requested.v1': z.object({
    userId: z.uuid(),
    name: z.string(),
    email: z.email(),
    requestedByName: z.string(),
    /** The requirements that count for their tier and are not met (manager view), with why. */
    openRequirements: z
      .array(
        z.object({
          name: z.string(),
          code: z.string(),
          tierLevel: z.number().int().min(0).max(3),
          reason: z.enum(['missing', 'expired', 'not_uploaded']),
          expirationDate: z.string().nullable(),
          trainingLink: z.string().nullable(),
        }),
      )
      .max(200),
  }),
  /** Expiry notices, reminders, weekly reports and their delivery outcomes (cert-notifications.ts). */
  ...CertNotificationEvents,
} as const
export type EventType = keyof typeof Events
export type EventData<T extends EventType> = z.infer<(typeof Events)[T]>
