import type { UserStats } from '@portal/contracts'
import type { Actor } from '@portal/server-kit'
import { ExamAttemptEntity, type AttemptService } from '../exams/index.ts'
import { roundPercent } from '../percent.ts'
import type { LearningContext } from '../context.ts'
import { requireReadableUser } from '../users/index.ts'
import { courseStatsOf } from '../courses/index.ts'

export function createStatsService(ctx: LearningContext, attempts: Pick<AttemptService, 'finaliseOverdueOf'>) {
  return {
    /** Dashboard and admin user stats: of the caller, of a user in a manager's scope, of anyone for admins. */
    async forUser(actor: Actor, userId: string): Promise<UserStats> {
      const em = ctx.orm.em.fork()
      await requireReadableUser(em, actor, userId)
      // An attempt whose time ran out counts even if the browser never came back.
      await attempts.finaliseOverdueOf(userId)
      const graded = await em.find(
        ExamAttemptEntity,
        { userId, status: { $ne: 'in_progress' } },
        { fields: ['examId', 'examName', 'score', 'passed', 'finalisedAt'], orderBy: { finalisedAt: 'desc', id: 'desc' } },
      )
      const scores = graded.map((a) => a.score ?? 0)
      return {
        examsTaken: graded.length,
        averageScore: scores.length ? roundPercent(scores.reduce((s, x) => s + x, 0) / scores.length) : 0,
        highestScore: scores.length ? Math.max(...scores) : 0,
        lowestScore: scores.length ? Math.min(...scores) : 0,
        examHistory: graded.map((a) => ({
          examId: a.examId,
          examName: a.examName,
          score: a.score ?? 0,
          passed: a.passed ?? false,
          completedAt: a.finalisedAt!.toISOString(),
        })),
        ...(await courseStatsOf(em, userId)),
      }
    },
  }
}
export type StatsService = ReturnType<typeof createStatsService>
