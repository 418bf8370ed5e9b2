import { Alert, ApiError, Button } from '@portal/ui-kit'

/** A load that failed: its message and Try Again, unless trying again cannot help (not found, not allowed). */
export const LoadFailure = ({ error, text, onRetry, size }: { error: unknown; text: string; onRetry: () => void; size?: 'small' }) => (
  <div className="pk-stack pk-items-start">
    <Alert>{text}</Alert>
    {error instanceof ApiError && (error.status === 404 || error.status === 403) ? null : (
      <Button size={size} onClick={onRetry}>
        Try Again
      </Button>
    )}
  </div>
)
