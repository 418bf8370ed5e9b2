import { REMOTES, type User } from '@portal/contracts'
import { Button, ensureStyles, LOAD_QUERY_DEFAULTS, RemoteSlot, Spinner, ToastProvider, type RemoteProps } from '@portal/ui-kit'
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { DueSection } from './assignments/index.ts'
import { ContinueCard, MyCoursesCard } from './courses/index.ts'
import { refreshDashboard } from './dashboard-keys.ts'
import { AvailableExamsCard, StatisticsCards, useRefreshOnReturn } from './exams/index.ts'
import { LoadFailure } from './LoadFailure.tsx'
import { needsProfile } from './profile/profile-form.ts'
import { ensureLearnerStyles } from './styles.ts'

ensureStyles()
ensureLearnerStyles()

// The viewer (and the SCORM runtime it loads) is fetched only when a course is opened.
const CourseViewer = lazy(() => import('./courses/CourseViewer.tsx'))
// The profile form only for a user whose profile is missing: a complete profile's first paint does without it.
const CompleteProfileModal = lazy(() => import('./profile/CompleteProfileModal.tsx').then((m) => ({ default: m.CompleteProfileModal })))

const Dashboard = (remote: RemoteProps) => {
  const { user, onUserUpdated, navigate, announcePage } = remote
  const [dismissed, setDismissed] = useState(false)
  const [openCourseId, setOpenCourseId] = useState<number | null>(null)
  // The button that opened the viewer (Continue Course or a View Course), found again by its data attribute.
  const lastOpened = useRef<string | null>(null)
  const queryClient = useQueryClient()
  useRefreshOnReturn()
  const missingProfile = needsProfile(user)
  // The profile dialog joins after the first commit: a lazy part in the first render held the
  // dashboard's data requests back until its chunk had come (a new learner's first screen one round
  // trip later, issue 30 item 7).
  const [afterFirstPaint, setAfterFirstPaint] = useState(false)
  useEffect(() => setAfterFirstPaint(true), [])
  useEffect(() => {
    // Back from the viewer: focus returns to the button that opened it.
    if (openCourseId === null && lastOpened.current !== null) {
      document.querySelector<HTMLButtonElement>(lastOpened.current)?.focus()
      announcePage?.('Dashboard')
    }
  }, [openCourseId, announcePage])
  const openCourse = (course: { id: number }, from: 'continue' | 'list' | 'due') => {
    lastOpened.current = `button[data-${from === 'continue' ? 'continue-course' : from === 'due' ? 'due-course' : 'course'}-id="${course.id}"]`
    setOpenCourseId(course.id)
  }
  const closeCourse = () => {
    setOpenCourseId(null)
    void refreshDashboard(queryClient)
  }
  if (openCourseId !== null)
    return (
      <Suspense fallback={<Spinner label="Loading course..." />}>
        <CourseViewer courseId={openCourseId} onClose={closeCourse} announcePage={announcePage} />
      </Suspense>
    )
  return (
    <div className="pk-stack">
      <h1>Welcome, {user.name}</h1>
      <LoadFailure />
      {missingProfile ? (
        <div className="pk-alert pk-alert--info pk-row pk-between">
          <span>Certification features are locked until you choose your branch and department.</span>
          <Button size="small" onClick={() => setDismissed(false)}>
            Complete Profile
          </Button>
        </div>
      ) : null}
      {/* The home leads with what to do next: what is due and overdue (issue 24), then continue; the figures after it (issue 15 item 5). */}
      <DueSection actions={{ navigate, openCourse: (course) => openCourse(course, 'due') }} />
      <ContinueCard onView={(course) => openCourse(course, 'continue')} />
      <AvailableExamsCard navigate={navigate} />
      <MyCoursesCard onView={(course) => openCourse(course, 'list')} />
      {/* The figures and the certification cards on one grid whose rows end together (issue 30 item 8). */}
      <div className="pk-dashboard-cards">
        <StatisticsCards userId={user.id} />
        {/* Certification Tracking, My Certifications (and Team Management for admins) come from the certification slice. */}
        <RemoteSlot id="mf_certifications/DashboardCards" {...remote} loadingLabel="Loading certifications..." />
      </div>
      {missingProfile && afterFirstPaint ? (
        <Suspense fallback={null}>
          <CompleteProfileModal open={!dismissed} user={user} onSaved={(saved: User) => onUserUpdated(saved)} onDismiss={() => setDismissed(true)} />
        </Suspense>
      ) : null}
    </div>
  )
}

/** mf_learner/UserDashboard: the learner's start page (this slice: welcome, profile, empty cards). */
const UserDashboard = (props: RemoteProps) => {
  // One cache per mount: signing out unmounts it, so no data leaks to the next user.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: LOAD_QUERY_DEFAULTS } }))
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>
        <Dashboard {...props} />
      </ToastProvider>
    </QueryClientProvider>
  )
}

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_learner.version

export default UserDashboard
