import type { ItemAnalysis, ItemAnalysisQuery } from '@portal/contracts'
import { notFound, streamWorkbook, type WorkbookDownload } from '@portal/server-kit'
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
  const { orm, logger } = ctx
  const analyse = async (examId: number, query: ItemAnalysisQuery): Promise<ItemAnalysis> => {
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
  }
  return {
    analyse,
    /** The same figures as an .xlsx: the test, the questions with their flags, every option, the histogram. */
    async exportWorkbook(examId: number, query: ItemAnalysisQuery): Promise<WorkbookDownload> {
      const a = await analyse(examId, query)
      const range = `${a.start_date ?? 'start'}-to-${a.end_date ?? 'now'}`
      const name =
        a.exam_name
          .replace(/[^A-Za-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .toLowerCase() || 'exam'
      const body = streamWorkbook(logger, 'item analysis export', async (addSheet) => {
        const test = addSheet('Exam', [
          { header: 'Figure', key: 'figure', width: 32 },
          { header: 'Value', key: 'value', width: 24 },
        ])
        const e = a.exam
        for (const [figure, value] of [
          ['Exam', a.exam_name],
          ['Attempts', a.kind === 'final' ? 'Final' : 'Practice'],
          ['From', a.start_date ?? 'first attempt'],
          ['To', a.end_date ?? 'today'],
          ['Attempts counted', e.attempts],
          ['Mean score (%)', e.mean],
          ['Median score (%)', e.median],
          ['Standard deviation', e.standard_deviation],
          ['Questions per attempt', e.questions_per_attempt],
          ["Cronbach's alpha", e.cronbach_alpha],
          ['Mean time of submitted attempts (s)', e.mean_duration_seconds],
        ] as const)
          await test.add({ figure, value: value ?? (e.attempts === 0 ? 'No attempts yet' : 'n/a') })
        await test.done()
        const questions = addSheet('Questions', [
          { header: 'Question', key: 'text', width: 48 },
          { header: 'Type', key: 'type', width: 16 },
          { header: 'In pool', key: 'pool', width: 9 },
          { header: 'Attempts', key: 'attempts', width: 10 },
          { header: 'Correct', key: 'correct', width: 10 },
          { header: 'Facility (%)', key: 'facility', width: 12 },
          { header: 'Discrimination (point-biserial)', key: 'discrimination', width: 16 },
          { header: 'Upper - lower 27%', key: 'upperLower', width: 14 },
          { header: 'Flags', key: 'flags', width: 70 },
        ])
        for (const q of a.questions)
          await questions.add({
            text: q.question_text,
            type: q.question_type === 'multi_select' ? 'Multi-select' : 'Multiple choice',
            pool: q.in_pool ? 'yes' : 'deleted',
            attempts: q.attempts,
            correct: q.correct,
            facility: q.facility,
            discrimination: q.discrimination,
            upperLower: q.upper_lower,
            flags: q.flags.map((f) => f.reason).join('; '),
          })
        await questions.done()
        const options = addSheet('Options', [
          { header: 'Question', key: 'question', width: 48 },
          { header: 'Option', key: 'text', width: 32 },
          { header: 'Correct', key: 'correct', width: 9 },
          { header: 'Chosen', key: 'chosen', width: 9 },
          { header: 'Chosen (%)', key: 'pct', width: 11 },
          { header: 'Upper 27% (%)', key: 'upper', width: 13 },
          { header: 'Lower 27% (%)', key: 'lower', width: 13 },
        ])
        for (const q of a.questions)
          for (const o of q.options)
            await options.add({
              question: q.question_text,
              text: o.text,
              correct: o.is_correct ? 'yes' : 'no',
              chosen: o.chosen,
              pct: o.chosen_pct,
              upper: o.upper_pct,
              lower: o.lower_pct,
            })
        await options.done()
        const histogram = addSheet('Histogram', [
          { header: 'Score from (%)', key: 'from', width: 14 },
          { header: 'Score to (%)', key: 'to', width: 14 },
          { header: 'Attempts', key: 'count', width: 10 },
        ])
        for (const b of e.histogram) await histogram.add(b)
        await histogram.done()
      })
      return { filename: `item-analysis-${name}-${a.kind}-${range}.xlsx`, body }
    },
  }
}
export type ItemAnalysisService = ReturnType<typeof createItemAnalysisService>
