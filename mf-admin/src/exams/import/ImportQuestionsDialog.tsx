import { Alert, Button, DataTable, Modal, Spinner } from '@portal/ui-kit'
import { useId, useState } from 'react'
import type { ImportedQuestion } from '../exam-form.ts'
import { IMPORT_TEMPLATE, readQuestions, type ImportResult } from './question-import.ts'
import { IMPORT_ACCEPT, UnreadableFileError, readTable } from './read-table.ts'

/** The pool's limit (the server takes at most this many questions per exam). */
const MAX_POOL = 1000

type Read = { status: 'idle' } | { status: 'reading'; fileName: string } | { status: 'failed'; message: string } | { status: 'read'; fileName: string; result: ImportResult }

const TYPE_WORDS = { multiple_choice: 'Multiple choice', multi_select: 'Multi-select' } as const
const answerText = (q: ImportedQuestion) => (Array.isArray(q.correct_answer) ? q.correct_answer : [q.correct_answer]).map((i) => i + 1).join(', ')

/** The template as a CSV download (papaparse writes it, quoting as needed). */
const downloadTemplate = async () => {
  const { default: Papa } = await import(/* webpackChunkName: "csv-reader" */ 'papaparse')
  const url = URL.createObjectURL(new Blob([Papa.unparse(IMPORT_TEMPLATE)], { type: 'text/csv' }))
  const a = document.createElement('a')
  a.href = url
  a.download = 'exam-questions-template.csv'
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/**
 * Import Questions: a CSV or Excel file read in the browser, a preview of every row with its own
 * errors, and only the rows without errors added to the pool (the form is saved as usual after).
 */
const ImportQuestionsDialog = ({
  categories,
  poolSize,
  onImport,
  onClose,
}: {
  categories: readonly string[]
  poolSize: number
  onImport: (questions: ImportedQuestion[]) => void
  onClose: () => void
}) => {
  const [read, setRead] = useState<Read>({ status: 'idle' })
  const labelId = useId()
  const hintId = useId()
  const readFile = async (file: File) => {
    setRead({ status: 'reading', fileName: file.name })
    try {
      setRead({ status: 'read', fileName: file.name, result: readQuestions(await readTable(file), categories) })
    } catch (err) {
      setRead({ status: 'failed', message: err instanceof UnreadableFileError ? err.message : `${file.name} could not be read.` })
    }
  }
  const result = read.status === 'read' ? read.result : null
  const ready = result?.rows.filter((r) => r.errors.length === 0) ?? []
  const withErrors = (result?.rows.length ?? 0) - ready.length
  const room = MAX_POOL - poolSize
  const tooMany = ready.length > room
  return (
    <Modal open title="Import Questions" onClose={onClose}>
      <div className="pk-stack pk-import pk-gap-l">
        <p id={hintId} className="pk-m0">
          A CSV or Excel (.xlsx) file, one question per row. The first row names the columns: <strong>Question</strong>, <strong>Option 1</strong>, <strong>Option 2</strong>, … (or
          one <strong>Options</strong> column separated by “|”), <strong>Correct</strong> (option numbers such as 2 or 1, 3); optionally <strong>Type</strong> (multiple_choice or
          multi_select), <strong>Category</strong>, <strong>Weight</strong> and <strong>Keep Order</strong> (yes when the options must stay in their order, e.g. “All of the
          above”).
        </p>
        <div>
          <Button size="small" variant="link" onClick={() => void downloadTemplate()}>
            Download a template (CSV)
          </Button>
        </div>
        <div className="pk-field">
          <span id={labelId} className="pk-fw-semibold pk-fs-14">
            Question File
          </span>
          <div className="pk-file-picker">
            <span className="pk-file-picker__control">
              <input
                id={`${labelId}-input`}
                type="file"
                accept={IMPORT_ACCEPT}
                aria-labelledby={labelId}
                aria-describedby={hintId}
                onChange={(e) => {
                  const file = e.target.files?.[0]
                  if (file) void readFile(file)
                  e.target.value = ''
                }}
              />
              <label htmlFor={`${labelId}-input`} className="pk-btn pk-btn--secondary" aria-hidden="true">
                Choose File…
              </label>
            </span>
            <span className="pk-muted pk-fs-14" aria-hidden="true">
              {read.status === 'read' || read.status === 'reading' ? read.fileName : 'No file chosen yet'}
            </span>
          </div>
        </div>
        {read.status === 'reading' ? <Spinner label={`Reading ${read.fileName}...`} /> : null}
        {read.status === 'failed' ? <Alert>{read.message}</Alert> : null}
        {result?.fileError ? <Alert>{result.fileError}</Alert> : null}
        {result && !result.fileError ? (
          <>
            <p role="status" className="pk-m0">
              {ready.length} of {result.rows.length} rows ready to import
              {withErrors > 0 ? `; ${withErrors} with errors ${withErrors === 1 ? 'is' : 'are'} left out` : ''}.
              {result.newCategories.length > 0 ? ` New categories: ${result.newCategories.join(', ')}.` : ''}
            </p>
            {tooMany ? (
              <Alert>
                The pool can hold {room} more questions (at most {MAX_POOL}); import a smaller file.
              </Alert>
            ) : null}
            <DataTable region={`Preview of ${read.status === 'read' ? read.fileName : ''}`} className="pk-import-table" wrapClassName="pk-import-preview">
              <caption className="pk-visually-hidden">Rows of the file and whether each can be imported</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Question</th>
                  <th scope="col">Type</th>
                  <th scope="col">Options</th>
                  <th scope="col">Correct</th>
                  <th scope="col">Category</th>
                  <th scope="col">Weight</th>
                  <th scope="col">Keep Order</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr key={r.line}>
                    <th scope="row">{r.line}</th>
                    <td>{r.question.question_text || <span className="pk-muted">(empty)</span>}</td>
                    <td>{TYPE_WORDS[r.question.question_type]}</td>
                    <td>{r.question.options.length}</td>
                    <td>{answerText(r.question)}</td>
                    <td>{r.question.subject_category || <span className="pk-muted">None</span>}</td>
                    <td>{r.question.category_weight}</td>
                    <td>{r.question.keep_option_order ? 'Yes' : 'No'}</td>
                    <td>
                      {r.errors.length === 0 ? (
                        <span className="pk-text-success pk-fw-semibold">Ready</span>
                      ) : (
                        <ul className="pk-m0 pk-pl-m pk-text-danger">
                          {r.errors.map((e) => (
                            <li key={e}>{e}</li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          </>
        ) : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            aria-disabled={ready.length === 0 || tooMany || undefined}
            onClick={() => {
              if (ready.length > 0 && !tooMany) onImport(ready.map((r) => r.question))
            }}
          >
            {ready.length > 0 ? `Import ${ready.length} Question${ready.length === 1 ? '' : 's'}` : 'Import'}
          </Button>
        </div>
      </div>
    </Modal>
  )
}

export default ImportQuestionsDialog
