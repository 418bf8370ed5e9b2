import { ensureStyles, type RemoteProps } from '@portal/ui-kit'

ensureStyles()

/** mf_exams/ExamPage: taking one exam (placeholder while the screen is built). */
const ExamPage = (_props: RemoteProps) => <section className="pk-card pk-stack"><h1>Exam</h1></section>

export default ExamPage
