import { QuestionInput, type QuestionType } from '@portal/contracts'
import type { ImportedQuestion } from '../exam-form.ts'

/** The columns a question file has (first row), matched case-insensitively; spaces, "-" and "_" alike. */
export const IMPORT_COLUMNS = {
  question: ['question', 'question text', 'text'],
  type: ['type', 'question type'],
  correct: ['correct', 'correct answer', 'answer', 'answers'],
  category: ['category', 'subject category'],
  weight: ['weight', 'category weight'],
  /** Yes for a question whose options are always shown as written (e.g. "All of the above"); empty is no. */
  keepOrder: ['keep order', 'keep option order', 'keep options in order', 'fixed order'],
  /** One column with every option, separated by "|"; else one column per option ("Option 1", "Option 2", ...). */
  options: ['options', 'choices'],
} as const
const OPTION_COLUMN = /^(option|choice)\s*([0-9]+|[a-z])$/

export const IMPORT_TEMPLATE = [
  ['Question', 'Type', 'Option 1', 'Option 2', 'Option 3', 'Option 4', 'Correct', 'Category', 'Weight', 'Keep Order'],
  ['How far should a ladder extend above the landing?', 'multiple_choice', 'One foot', 'Three feet', 'Five feet', '', '2', 'Ladders', '1', ''],
  ['Which tools need a GFCI outlet?', 'multi_select', 'Corded drill', 'Hand saw', 'Corded grinder', '', '1, 3', 'Tools', '2', ''],
  ['What must be checked before climbing a ladder?', 'multiple_choice', 'The rungs', 'The feet', 'The locks', 'All of the above', '4', 'Ladders', '1', 'yes'],
]

/** One data row of the file as the preview shows it: what was read, and why it cannot be imported. */
export interface ImportRow {
  /** The row's number in the file (the header is row 1). */
  line: number
  question: ImportedQuestion
  errors: string[]
}

export interface ImportResult {
  /** The file cannot be read as questions at all (e.g. no Question column). */
  fileError: string | null
  rows: ImportRow[]
  /** Categories the import adds to the exam. */
  newCategories: string[]
}

const norm = (s: unknown) =>
  String(s ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim())
const TYPES: Record<string, QuestionType> = {
  'multiple choice': 'multiple_choice',
  single: 'multiple_choice',
  'single choice': 'multiple_choice',
  'multi select': 'multi_select',
  multiselect: 'multi_select',
  multiple: 'multi_select',
  'multiple select': 'multi_select',
}

/** The Keep Order column's words (empty: no). */
const KEEP_ORDER = new Map<string, boolean>([
  ...['', 'no', 'n', 'false', '0'].map((w) => [w, false] as const),
  ...['yes', 'y', 'true', '1', 'x', 'keep'].map((w) => [w, true] as const),
])

/** "2", "1, 3", "1;3", "B", "a|c" → 0-based option indexes; null when a part is neither a number nor a letter. */
export const parseCorrect = (text: string): number[] | null => {
  const parts = text.split(/[,;|/\s]+/).filter(Boolean)
  const out: number[] = []
  for (const p of parts) {
    if (/^[0-9]+$/.test(p)) out.push(Number(p) - 1)
    else if (/^[a-z]$/i.test(p)) out.push(p.toUpperCase().charCodeAt(0) - 65)
    else return null
  }
  return [...new Set(out)].sort((a, b) => a - b)
}

/**
 * Reads a table of cells (first row: column names) as exam questions, each row checked by the
 * server's own rules, so what the preview calls ready is what the exam accepts.
 */
export function readQuestions(table: readonly (readonly unknown[])[], existingCategories: readonly string[], maxRows = 1000): ImportResult {
  const [header, ...body] = table
  const names = (header ?? []).map(norm)
  const find = (aliases: readonly string[]) => names.findIndex((n) => aliases.includes(n))
  const col = {
    question: find(IMPORT_COLUMNS.question),
    type: find(IMPORT_COLUMNS.type),
    correct: find(IMPORT_COLUMNS.correct),
    category: find(IMPORT_COLUMNS.category),
    weight: find(IMPORT_COLUMNS.weight),
    keepOrder: find(IMPORT_COLUMNS.keepOrder),
    options: find(IMPORT_COLUMNS.options),
  }
  const optionColumns = names.flatMap((n, i) => (OPTION_COLUMN.test(n) ? [i] : []))
  if (col.question < 0 || col.correct < 0 || (col.options < 0 && optionColumns.length === 0))
    return {
      fileError: 'The first row must name the columns: Question, Option 1, Option 2 (or Options, separated by "|"), Correct; Type, Category, Weight and Keep Order may follow.',
      rows: [],
      newCategories: [],
    }
  const rows: ImportRow[] = []
  body.forEach((r, i) => {
    if (r.every((v) => cell(v) === '')) return
    const errors: string[] = []
    const text = cell(r[col.question])
    const options = (col.options >= 0 ? cell(r[col.options]).split('|') : optionColumns.map((c) => cell(r[c]))).map((o) => o.trim()).filter(Boolean)
    const typeText = col.type >= 0 ? norm(r[col.type]) : ''
    const correct = parseCorrect(cell(r[col.correct]))
    let type: QuestionType = (correct?.length ?? 0) > 1 ? 'multi_select' : 'multiple_choice'
    if (typeText) {
      const t = TYPES[typeText] ?? (typeText === 'multiple_choice' || typeText === 'multi_select' ? typeText : undefined)
      if (t) type = t
      else errors.push(`Unknown type "${cell(r[col.type])}": use multiple_choice or multi_select`)
    }
    if (correct === null) errors.push('Correct answer must be option numbers (1, 2, ...) or letters (A, B, ...)')
    else if (correct.length === 0) errors.push('Correct answer is missing')
    else {
      const outside = correct.filter((c) => c < 0 || c >= options.length)
      if (outside.length) errors.push(`Correct answer ${outside.map((c) => c + 1).join(', ')} is not one of the ${options.length} options`)
      if (type === 'multiple_choice' && correct.length > 1) errors.push('A multiple choice question has one correct answer')
    }
    const weightText = col.weight >= 0 ? cell(r[col.weight]) : ''
    const weight = weightText ? Number(weightText.replace(',', '.')) : 1
    if (!Number.isFinite(weight) || weight <= 0 || weight > 100) errors.push('Weight must be a number above 0 and at most 100')
    const keepText = col.keepOrder >= 0 ? norm(r[col.keepOrder]) : ''
    const keepOrder = KEEP_ORDER.get(keepText)
    if (keepOrder === undefined) errors.push(`Keep Order must be yes or no, not "${cell(r[col.keepOrder])}"`)
    const question: ImportedQuestion = {
      question_type: type,
      question_text: text,
      options,
      correct_answer: type === 'multi_select' ? (correct ?? []) : (correct?.[0] ?? 0),
      subject_category: col.category >= 0 ? cell(r[col.category]) : '',
      category_weight: Number.isFinite(weight) ? weight : 1,
      keep_option_order: keepOrder ?? false,
    }
    // The server's schema says the rest (text required, two options at least, lengths).
    const checked = QuestionInput.safeParse({ ...question, subject_category: question.subject_category || null })
    if (!checked.success) for (const issue of checked.error.issues) if (issue.path[0] !== 'correct_answer' && issue.path[0] !== 'category_weight') errors.push(issue.message)
    rows.push({ line: i + 2, question, errors: [...new Set(errors)] })
  })
  if (rows.length > maxRows) return { fileError: `The file has ${rows.length} questions; at most ${maxRows} can be imported at once.`, rows: [], newCategories: [] }
  const known = new Set(existingCategories.map((c) => c.toLowerCase()))
  const newCategories: string[] = []
  for (const row of rows)
    if (row.errors.length === 0 && row.question.subject_category && !known.has(row.question.subject_category.toLowerCase())) {
      known.add(row.question.subject_category.toLowerCase())
      newCategories.push(row.question.subject_category)
    }
  if (rows.length === 0) return { fileError: 'The file has no questions.', rows, newCategories }
  return { fileError: null, rows, newCategories }
}
