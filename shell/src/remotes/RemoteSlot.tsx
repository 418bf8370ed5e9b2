import { Button, Spinner, type RemoteProps } from '@portal/ui-kit'
import { Component, Suspense, lazy, useMemo, useState, type ReactNode } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router'
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
    console.error('[shell] remote failed', error)
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

/** Renders an exposed remote component with the shell's props, a spinner while loading and a fallback. */
export const RemoteSlot = ({ id, ...props }: Omit<RemoteProps, 'navigate' | 'params' | 'locationState'> & { id: string }) => {
  const [attempt, setAttempt] = useState(0)
  const navigate = useNavigate()
  const params = useParams()
  const location = useLocation()
  // A new lazy() per attempt: React caches a rejected lazy for good.
  const Remote = useMemo(() => lazy(() => loadRemoteComponent(id)), [id, attempt])
  return (
    <RemoteErrorBoundary key={attempt} onRetry={() => setAttempt((a) => a + 1)}>
      <Suspense fallback={<Spinner />}>
        <Remote {...props} navigate={navigate} params={params} locationState={location.state} />
      </Suspense>
    </RemoteErrorBoundary>
  )
}
