import type { ItemAnalysis, ItemAnalysisQuery } from '@portal/contracts'
import { notFound } from '@portal/server-kit'
import type { LearningContext } from '../context.ts'
import { itemAnalysisRepository, type AnalysisRange } from './item-analysis.repository.ts'
import { toExamStats, toItemStats } from './stats.ts'

/** The day after an ISO date (the range's end is that whole day). */
const dayAfter = (isoDate: string) => new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000).toISOString()

/**
 * Item analysis of one exam (admins; the route gates). The figures are aggregated by the database
 * from the kept rows of each graded attempt (migration 0011); this only names the questions and
 * applies the flags' rules.
 */
export function createItemAnalysisService(ctx: LearningContext) {
  const { orm } = ctx
  return {
    async analyse(examId: number, query: ItemAnalysisQuery): Promise<ItemAnalysis> {
      const em = orm.em.fork()
      const exam = await itemAnalysisRepository.exam(em, examId)
      if (!exam) throw notFound('Exam not found', 'exam_not_found')
      const range: AnalysisRange = {
        examId,
        kind: query.kind ?? exam.examType,
        from: query.start_date ? `${query.start_date}T00:00:00Z` : '-infinity',
        to: query.end_date ? dayAfter(query.end_date) : 'infinity',
      }
      const pool = await itemAnalysisRepository.poolQuestions(em, examId)
      const [examStats, items] = await Promise.all([
        itemAnalysisRepository.examStats(em, range),
        itemAnalysisRepository.itemStats(em, range, Math.max(0, ...pool.map((q) => q.options.length))),
      ])
      const inPool = new Set(pool.map((q) => q.id))
      const gone = await itemAnalysisRepository.snapshotQuestions(
        em,
        examId,
        items.filter((i) => !inPool.has(i.questionId)).map((i) => i.questionId),
      )
      const byId = new Map(items.map((i) => [i.questionId, i]))
      return {
        exam_id: examId,
        exam_name: exam.name,
        kind: range.kind,
        start_date: query.start_date ?? null,
        end_date: query.end_date ?? null,
        exam: toExamStats(examStats, items),
        questions: [...pool, ...gone].map((q) => toItemStats(q, byId.get(q.id))),
      }
    },
  }
}
export type ItemAnalysisService = ReturnType<typeof createItemAnalysisService>
