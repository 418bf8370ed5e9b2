import { ensureStyles, type RemoteProps } from '@portal/ui-kit'

ensureStyles()

/** mf_exams/ExamResultsPage: the result of a submitted exam (placeholder). */
const ExamResultsPage = (_props: RemoteProps) => <section className="pk-card pk-stack"><h1>Exam Results</h1></section>

export default ExamResultsPage
