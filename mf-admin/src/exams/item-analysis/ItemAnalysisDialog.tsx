import type { Exam, ExamType, ItemAnalysis, ItemAnalysisQuery } from '@portal/contracts'
import { Alert, Button, DataTable, EmptyState, errorMessage, Modal, Select, Spinner, TableHead, TextField } from '@portal/ui-kit'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { fetchItemAnalysis, fetchItemAnalysisWorkbook, itemAnalysisKey, restoreQuestion, retireQuestion } from './api.ts'
import { figure, flaggedCount, histogramBars, histogramText, optionLines, percent, rangeError, scatterPoints, scatterText, workbookName } from './item-analysis-view.ts'

const KINDS = [
  { value: 'final', label: 'Final attempts' },
  { value: 'practice', label: 'Practice attempts' },
]

/** Saves a Blob under `name` through a temporary link. */
const saveBlob = (blob: Blob, name: string) => {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

const Figure = ({ label, value }: { label: string; value: string }) => (
  <div className="pk-figure">
    <dt>{label}</dt>
    <dd>{value}</dd>
  </div>
)

const W = 320
const H = 140

/** The score histogram as a drawing with its figures in words. */
const Histogram = ({ stats }: { stats: ItemAnalysis['exam'] }) => {
  const id = useId()
  const bars = histogramBars(stats.histogram, W, H)
  return (
    <figure className="pk-m0">
      <svg role="img" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} viewBox={`0 -4 ${W} ${H + 24}`} width="100%" style={{ maxWidth: 480 }}>
        <title id={`${id}-t`}>Score histogram</title>
        <desc id={`${id}-d`}>{histogramText(stats.histogram)}</desc>
        <line x1={0} y1={H} x2={W} y2={H} stroke="currentColor" />
        {bars.map((b) => (
          <g key={b.label}>
            <rect x={b.x + 2} y={b.y} width={b.width - 4} height={b.height} fill="#2563eb" />
            <text x={b.x + b.width / 2} y={H + 14} fontSize={9} textAnchor="middle">
              {b.label.split('–')[0]}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>Attempts per score band (percent).</figcaption>
    </figure>
  )
}

/** Facility against discrimination, one dot per question (flagged ones in red), with the figures in words. */
const Scatter = ({ questions }: { questions: ItemAnalysis['questions'] }) => {
  const id = useId()
  const points = scatterPoints(questions, W, H)
  return (
    <figure className="pk-m0">
      <svg role="img" aria-labelledby={`${id}-t`} aria-describedby={`${id}-d`} viewBox={`-24 -8 ${W + 32} ${H + 30}`} width="100%" style={{ maxWidth: 480 }}>
        <title id={`${id}-t`}>Facility and discrimination</title>
        <desc id={`${id}-d`}>{scatterText(questions)}</desc>
        <rect x={0} y={0} width={W} height={H} fill="none" stroke="currentColor" />
        <line x1={0} y1={H / 2} x2={W} y2={H / 2} stroke="#9ca3af" strokeDasharray="4 3" />
        <text x={-4} y={4} fontSize={9} textAnchor="end">
          1
        </text>
        <text x={-4} y={H / 2 + 3} fontSize={9} textAnchor="end">
          0
        </text>
        <text x={-4} y={H} fontSize={9} textAnchor="end">
          -1
        </text>
        <text x={0} y={H + 14} fontSize={9}>
          0%
        </text>
        <text x={W} y={H + 14} fontSize={9} textAnchor="end">
          100% facility
        </text>
        {points.map((p) => (
          <g key={p.questionId}>
            <circle cx={p.x} cy={p.y} r={4} fill={p.flagged ? '#dc2626' : '#2563eb'} />
            <text x={p.x + 6} y={p.y + 3} fontSize={9}>
              {p.label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>Facility (percent correct) across, discrimination (point-biserial) up; red: flagged.</figcaption>
    </figure>
  )
}

/**
 * Item analysis of one exam (issue 27): the test's figures, the score histogram, facility against
 * discrimination, and per question its figures, options and flags; a date range, final or practice
 * attempts, and the same figures as an .xlsx.
 */
export const ItemAnalysisDialog = ({ exam, onClose }: { exam: Pick<Exam, 'id' | 'name' | 'exam_type'>; onClose: () => void }) => {
  const [kind, setKind] = useState<ExamType>(exam.exam_type)
  const [start, setStart] = useState('')
  const [end, setEnd] = useState('')
  const [exporting, setExporting] = useState(false)
  const [exportError, setExportError] = useState<string | null>(null)
  const invalid = rangeError(start, end)
  const query: ItemAnalysisQuery = { kind, ...(start ? { start_date: start } : {}), ...(end ? { end_date: end } : {}) }
  const analysis = useQuery({
    queryKey: itemAnalysisKey(exam.id, query),
    queryFn: () => fetchItemAnalysis(exam.id, query),
    enabled: !invalid,
  })
  const a = analysis.data
  const queryClient = useQueryClient()
  // Retire or restore: the exams list and every analysis are fetched again.
  const lifecycle = useMutation({
    mutationFn: ({ questionId, retire }: { questionId: number; retire: boolean }) => (retire ? retireQuestion : restoreQuestion)(exam.id, questionId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin-exams'] }),
  })
  const download = async () => {
    setExporting(true)
    setExportError(null)
    try {
      saveBlob(await fetchItemAnalysisWorkbook(exam.id, query), workbookName({ exam_name: exam.name, kind }))
    } catch (err) {
      setExportError(errorMessage(err, 'Failed to export the item analysis'))
    } finally {
      setExporting(false)
    }
  }
  return (
    <Modal open title={`Item Analysis: ${exam.name}`} onClose={onClose}>
      <div className="pk-stack pk-wide">
        <div className="pk-row">
          <Select label="Attempts" value={kind} options={KINDS} onChange={(e) => setKind(e.target.value as ExamType)} />
          <TextField label="From" type="date" value={start} onChange={(e) => setStart(e.target.value)} />
          <TextField label="To" type="date" value={end} error={invalid} onChange={(e) => setEnd(e.target.value)} />
          <Button variant="secondary" onClick={() => void download()} disabled={exporting || Boolean(invalid) || !a}>
            {exporting ? 'Exporting...' : 'Export to Excel'}
          </Button>
        </div>
        {exportError ? <Alert>{exportError}</Alert> : null}
        {lifecycle.isError ? <Alert>{errorMessage(lifecycle.error, 'Failed to change the question')}</Alert> : null}
        {invalid ? null : analysis.isPending ? <Spinner label="Loading the item analysis..." /> : null}
        {analysis.isError ? <Alert>{errorMessage(analysis.error, 'Failed to load the item analysis')}</Alert> : null}
        {a && !invalid ? (
          a.exam.attempts === 0 ? (
            <EmptyState>No attempts yet</EmptyState>
          ) : (
            <>
              <dl className="pk-figures" aria-label="Exam figures">
                <Figure label="Attempts" value={String(a.exam.attempts)} />
                <Figure label="Mean score" value={percent(a.exam.mean)} />
                <Figure label="Median score" value={percent(a.exam.median)} />
                <Figure label="Standard deviation" value={figure(a.exam.standard_deviation)} />
                <Figure label="Cronbach's alpha" value={figure(a.exam.cronbach_alpha)} />
                <Figure label="Flagged questions" value={String(flaggedCount(a))} />
              </dl>
              <div className="pk-row">
                <Histogram stats={a.exam} />
                <Scatter questions={a.questions} />
              </div>
              <DataTable>
                <caption>Questions</caption>
                <TableHead columns={['#', 'Question', 'Attempts', 'Facility', 'Discrimination', 'Upper − lower 27%', 'Options (chosen)', 'Flags', 'Pool']} />
                <tbody>
                  {a.questions.map((q, i) => (
                    <tr key={q.question_id}>
                      <td>Q{i + 1}</td>
                      <th scope="row">
                        {q.question_text}
                        {q.status === 'active' ? null : ` (${q.status})`}
                      </th>
                      <td>{q.attempts}</td>
                      <td>{percent(q.facility)}</td>
                      <td>{figure(q.discrimination)}</td>
                      <td>{figure(q.upper_lower)}</td>
                      <td>
                        <ul className="pk-m0">
                          {optionLines(q).map((line) => (
                            <li key={line}>{line}</li>
                          ))}
                        </ul>
                      </td>
                      <td>
                        {q.flags.length === 0 ? (
                          'None'
                        ) : (
                          <ul className="pk-m0">
                            {q.flags.map((f) => (
                              <li key={f.reason}>
                                <strong>Flagged:</strong> {f.reason}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                      <td>
                        {q.status === 'deleted' ? (
                          'Deleted'
                        ) : (
                          <Button
                            size="small"
                            variant="secondary"
                            disabled={lifecycle.isPending}
                            aria-label={`${q.status === 'active' ? 'Retire' : 'Restore'} Q${i + 1}`}
                            onClick={() => lifecycle.mutate({ questionId: q.question_id, retire: q.status === 'active' })}
                          >
                            {q.status === 'active' ? 'Retire' : 'Restore'}
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
              <p className="pk-hint pk-m0">
                Time per question is not recorded, so no average time is shown. A retired question is kept for the attempts that answered it and never offered again.
              </p>
            </>
          )
        ) : null}
      </div>
    </Modal>
  )
}
