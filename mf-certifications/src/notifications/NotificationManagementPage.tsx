import { REMOTES } from '@portal/contracts'
import { errorMessage, Spinner, Tabs, useAnnouncement, usePageHeading, type RemoteProps } from '@portal/ui-kit'
import { lazy, Suspense, useState } from 'react'
import { RouteLink, exposed, Notice, LoadFailure } from '../shared/index.ts'
import { useCertificationDashboard } from './data/apiHooks.ts'
import { ComplianceOverview } from './ComplianceOverview.tsx'
import { ConfigsTab } from './ConfigsTab.tsx'
import { ExpiredTab } from './ExpiredTab.tsx'
import { LogsTab } from './LogsTab.tsx'
import { ManualActions } from './ManualActions.tsx'
import { NOTIFICATION_TABS, NOTIFICATIONS_TITLE, type NotificationTab } from './notification-view.ts'

// The chart and its tables come after the overview, in a chunk of their own.
const ForecastSection = lazy(() => import('./ForecastSection.tsx'))

const tabId = (tab: NotificationTab) => `cn-tab-${tab.toLowerCase().replace(/\s+/g, '-')}`

/**
 * mf_certifications/CertificationNotifications (admin §2): the Certification Notification
 * Management screen, opened from the Notification Settings card. Compliance overview, manual
 * actions, the compliance forecast, and the tabs Email Configurations, Notification Logs and
 * Expired Certifications.
 */
export const NotificationManagementView = ({ navigate }: Pick<RemoteProps, 'navigate'>) => {
  const headingRef = usePageHeading(NOTIFICATIONS_TITLE)
  const [notice, announce] = useAnnouncement()
  const [tab, setTab] = useState<NotificationTab>('Email Configurations')
  const [allExpired, setAllExpired] = useState(false)
  const dashboard = useCertificationDashboard(allExpired)
  return (
    <div className="pk-stack">
      <h1 ref={headingRef} tabIndex={-1} className="pk-m0">
        {NOTIFICATIONS_TITLE}
      </h1>
      <p className="pk-m0">
        <RouteLink to="/admin-dashboard" navigate={navigate}>
          Back to Admin Dashboard
        </RouteLink>
      </p>
      <Notice notice={notice} />
      {dashboard.isPending ? (
        <Spinner label="Loading compliance..." />
      ) : dashboard.isError ? (
        <LoadFailure error={dashboard.error} text={errorMessage(dashboard.error, 'Failed to load the certification dashboard')} onRetry={() => void dashboard.refetch()} />
      ) : (
        <ComplianceOverview compliance={dashboard.data.compliance} />
      )}
      <ManualActions announce={announce} />
      <Suspense fallback={<Spinner label="Loading forecast..." />}>
        <ForecastSection />
      </Suspense>
      <Tabs label="Notification settings" tabs={NOTIFICATION_TABS} selected={tab} onSelect={setTab} idOf={tabId} panelClassName="pk-card pk-stack">
        {tab === 'Email Configurations' ? (
          <ConfigsTab announce={announce} />
        ) : tab === 'Notification Logs' ? (
          <LogsTab />
        ) : dashboard.data ? (
          <ExpiredTab
            expired={dashboard.data.expired}
            total={dashboard.data.counts.expired}
            loadingAll={allExpired && dashboard.isPlaceholderData}
            onShowAll={() => setAllExpired(true)}
            announce={announce}
          />
        ) : dashboard.isPending ? (
          <Spinner label="Loading expired certifications..." />
        ) : (
          <LoadFailure error={dashboard.error} text={errorMessage(dashboard.error, 'Failed to load the certification dashboard')} onRetry={() => void dashboard.refetch()} />
        )}
      </Tabs>
    </div>
  )
}

export default exposed(NotificationManagementView)

/** The contract this module was built against; the shell checks it when it loads the module. */
export const contract = REMOTES.mf_certifications.version
