import { Alert, ApiError, errorMessage } from '@portal/ui-kit'

/**
 * Why a test report was not sent. A group that still lacks recipients, tracked items or members is
 * not an error: the service names what is missing, and that is said as information (issue 30 item 5).
 */
export const TestReportProblem = ({ error }: { error: unknown }) =>
  error instanceof ApiError && error.code === 'report_not_ready' ? (
    <Alert tone="info">{errorMessage(error, 'Nothing sent yet: this group is not ready for a report.')}</Alert>
  ) : (
    <Alert>{`Error sending test report: ${errorMessage(error, 'Failed to send the report')}`}</Alert>
  )
