import { ensureStyles, type RemoteProps } from '@portal/ui-kit'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { dashboardPath } from './api.ts'
import { resultFromState } from './results/results.ts'
import { ResultsView } from './results/ResultsView.tsx'
import { ensureExamStyles } from './styles.ts'

ensureStyles()
ensureExamStyles()

/** mf_exams/ExamResultsPage: the result handed over by the exam screen (route /exam-results). */
const ExamResultsPage = ({ user }: RemoteProps) => {
  const location = useLocation()
  const navigate = useNavigate()
  const home = dashboardPath(user.is_admin)
  const result = resultFromState(location.state)
  // The shell already redirects when there is no state; this also covers state that is not a result.
  if (!result) return <Navigate to={home} replace />
  return <ResultsView result={result} onDone={() => navigate(home)} />
}

export default ExamResultsPage
