import { REMOTES } from '@portal/contracts'
import { ensureStyles, LOAD_QUERY_DEFAULTS, type RemoteProps } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { ExamScreen } from './exam/index.ts'
import { ensureExamStyles } from './styles.ts'

ensureStyles()
ensureExamStyles()

/** mf_exams/ExamPage: intro, taking and submitting one exam (route /exam/:id). */
const ExamPage = ({ user, navigate, params, registerLeaveGuard, announcePage }: RemoteProps) => {
  // One cache per mount: signing out unmounts it, so no data leaks to the next user.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: LOAD_QUERY_DEFAULTS } }))
  return (
    <QueryClientProvider client={client}>
      <ExamScreen user={user} navigate={navigate} params={params} registerLeaveGuard={registerLeaveGuard} announcePage={announcePage} />
    </QueryClientProvider>
  )
}

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_exams.version

export default ExamPage
