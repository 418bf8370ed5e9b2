import { Alert, Button, errorMessage } from '@portal/ui-kit'

/** A part of the screen that did not load: the server's message or the default, and Try Again. */
export const LoadFailed = ({ error, fallback, onRetry }: { error: unknown; fallback: string; onRetry: () => void }) => (
  <div className="pk-stack" style={{ alignItems: 'flex-start' }}>
    <Alert>{errorMessage(error, fallback)}</Alert>
    <Button onClick={onRetry}>Try Again</Button>
  </div>
)
