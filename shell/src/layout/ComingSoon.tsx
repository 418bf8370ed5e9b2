import { Link } from 'react-router'
import { dashboardOf, useAuth } from '../auth/AuthProvider.tsx'

/** A route of the spec whose slice has not shipped yet: says so plainly. */
export const ComingSoon = ({ title }: { title: string }) => {
  const { state } = useAuth()
  const home = state.status === 'authenticated' ? dashboardOf(state.user) : '/'
  return (
    <section className="pk-card pk-stack" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title">{title}</h1>
      <p>This part of the portal is not available yet.</p>
      <p>
        <Link to={home}>Return to Dashboard</Link>
      </p>
    </section>
  )
}
