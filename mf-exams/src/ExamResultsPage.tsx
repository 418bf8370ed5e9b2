import { REMOTES } from '@portal/contracts'
import { ensureStyles, type RemoteProps } from '@portal/ui-kit'
import { useEffect } from 'react'
import { dashboardPath } from './dashboard-path.ts'
import { resultFromState, ResultsView } from './results/index.ts'
import { ensureExamStyles } from './styles.ts'

ensureStyles()
ensureExamStyles()

/** mf_exams/ExamResultsPage: the result handed over by the exam screen (route /exam-results). */
const ExamResultsPage = ({ user, navigate, locationState }: RemoteProps) => {
  const home = dashboardPath(user.is_admin)
  const result = resultFromState(locationState)
  // The shell already redirects when there is no state; this also covers state that is not a result.
  useEffect(() => {
    if (!result) navigate(home, { replace: true })
  }, [result, home, navigate])
  if (!result) return null
  return <ResultsView result={result} onDone={() => navigate(home)} />
}

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_exams.version

export default ExamResultsPage
