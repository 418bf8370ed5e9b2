import { Button } from '@portal/ui-kit'

/** "Error Loading Course" with Go Back and Try Again (which reloads the page). */
export const LoadError = ({ message, onGoBack }: { message: string; onGoBack: () => void }) => (
  <div role="alert" className="pk-stack pk-items-start">
    <h3 className="pk-m0">Error Loading Course</h3>
    <p className="pk-m0 pk-text-danger">{message}</p>
    <div className="pk-row">
      <Button variant="secondary" onClick={onGoBack}>
        Go Back
      </Button>
      <Button onClick={() => window.location.reload()}>Try Again</Button>
    </div>
  </div>
)
