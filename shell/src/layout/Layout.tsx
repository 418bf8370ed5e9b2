import { Button } from '@portal/ui-kit'
import { useRef } from 'react'
import { Link, Outlet, useNavigate } from 'react-router'
import { useAuth } from '../auth/AuthProvider.tsx'
import { useLeaveGuards } from '../leave/LeaveGuardProvider.tsx'
import { useFocusOnNavigation } from './page-announcer.tsx'

export const PRODUCT_NAME = 'Learning Portal'

/** Header with the product name and, when signed in, Logout; the page below. */
export const Layout = () => {
  const { state, signOut } = useAuth()
  const navigate = useNavigate()
  const { confirmLeave } = useLeaveGuards()
  const main = useRef<HTMLElement>(null)
  useFocusOnNavigation(main)
  const logOut = async () => {
    // A page with something under way (a running exam) says what happens first, and may keep the user.
    if (!(await confirmLeave({ kind: 'logout' }))) return
    signOut()
    navigate('/login', { replace: true })
  }
  return (
    <>
      <header className="pk-header">
        <Link to="/">{PRODUCT_NAME}</Link>
        {state.status === 'authenticated' ? (
          <div className="pk-user">
            <span>{state.user.name}</span>
            <Button
              variant="secondary"
              size="small"
              onClick={() => void logOut()}
            >
              Logout
            </Button>
          </div>
        ) : null}
      </header>
      <main className="pk-main" ref={main}>
        <Outlet />
      </main>
    </>
  )
}
