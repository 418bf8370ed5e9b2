import { Component, Suspense, lazy, useMemo, useState, type ReactNode } from 'react'
import { Button } from '../components/Button.tsx'
import { Spinner } from '../components/Feedback.tsx'
import type { RemoteProps } from '../index.ts'
import { loadRemoteComponent } from './federation.ts'

interface BoundaryProps {
  children: ReactNode
  onRetry: () => void
}

/** Keeps a failing remote (down, or crashing while rendering) inside its box. */
class RemoteErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override componentDidCatch(error: unknown) {
    console.error('[portal] remote failed', error)
  }

  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <div className="pk-card pk-stack" role="alert">
        <p>This part of the portal could not be loaded.</p>
        <div>
          <Button onClick={this.props.onRetry}>Try Again</Button>
        </div>
      </div>
    )
  }
}

export interface RemoteSlotProps extends RemoteProps {
  /** The exposed module, e.g. `mf_certifications/DashboardCards`. */
  id: string
  /** Shown while the remote loads. */
  loadingLabel?: string
}

/**
 * Renders another remote's exposed component with the host's props (user, navigation), a spinner
 * while it loads and a fallback with Try Again when it cannot be loaded or crashes. The shell
 * hosts pages with it; any remote can host another's component the same way.
 */
export const RemoteSlot = ({ id, loadingLabel, ...props }: RemoteSlotProps) => {
  const [attempt, setAttempt] = useState(0)
  // A new lazy() per attempt: React caches a rejected lazy for good.
  const Remote = useMemo(() => lazy(() => loadRemoteComponent<RemoteProps>(id)), [id, attempt])
  return (
    <RemoteErrorBoundary key={attempt} onRetry={() => setAttempt((a) => a + 1)}>
      <Suspense fallback={<Spinner label={loadingLabel} />}>
        <Remote {...props} />
      </Suspense>
    </RemoteErrorBoundary>
  )
}
