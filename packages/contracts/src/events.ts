import { z } from 'zod'
import { Branch, Department, ManagerScope } from './identity.ts'

/** Envelope of every event on the bus: `<domain>.<aggregate>.<past-tense-verb>.v1`. */
export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().regex(/^[a-z-]+\.[a-z-]+\.[a-z-]+\.v\d+$/),
  occurredAt: z.iso.datetime(),
  data: z.unknown(),
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
})

/** Every event schema by its subject; a consumer parses `data` with the schema of its type. */
export const Events = {
  'identity.user.registered.v1': UserFacts,
  'identity.user.updated.v1': UserFacts,
  'identity.user.deleted.v1': z.object({ userId: z.uuid() }),
  'identity.verification.requested.v1': z.object({
    userId: z.uuid(),
    name: z.string(),
    email: z.email(),
    code: z.string().regex(/^\d{6}$/),
    expiresAt: z.iso.datetime(),
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
} as const
export type EventType = keyof typeof Events
export type EventData<T extends EventType> = z.infer<(typeof Events)[T]>
