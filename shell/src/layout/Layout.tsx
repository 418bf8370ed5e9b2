import { Button } from '@portal/ui-kit'
import { useEffect, useRef, useState } from 'react'
import { Link, Outlet, useLocation, useNavigate } from 'react-router'
import type { User } from '@portal/contracts'
import { useAuth } from '../auth/index.ts'
import { useLeaveGuards } from '../leave/index.ts'
import { isCurrent, sectionsFor } from './navigation.ts'
import { useFocusOnNavigation } from './page-announcer.tsx'

export const PRODUCT_NAME = 'Learning Portal'

/** Header with the product name and, when signed in, the sections the user may open and Logout; the page below. */
export const Layout = () => {
  const { state } = useAuth()
  const main = useRef<HTMLElement>(null)
  useFocusOnNavigation(main)
  return (
    <>
      <header className="pk-header">
        <Link to="/" className="pk-brand">
          {PRODUCT_NAME}
        </Link>
        {state.status === 'authenticated' ? <SiteMenu user={state.user} /> : null}
      </header>
      <main className="pk-main" ref={main}>
        <Outlet />
      </main>
    </>
  )
}

/**
 * The navigation and the user's name and Logout: in the header on wide screens, behind a Menu
 * disclosure button on phones (closed again by a navigation or Escape).
 */
const SiteMenu = ({ user }: { user: User }) => {
  const { signOut } = useAuth()
  const navigate = useNavigate()
  const { pathname, hash, key } = useLocation()
  const { confirmLeave } = useLeaveGuards()
  const [open, setOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  useEffect(() => setOpen(false), [key])
  const logOut = async () => {
    // A page with something under way (a running exam) says what happens first, and may keep the user.
    if (!(await confirmLeave({ kind: 'logout' }))) return
    signOut()
    navigate('/login', { replace: true })
  }
  return (
    <>
      <button
        type="button"
        className="pk-btn pk-btn--secondary pk-btn--small pk-menu-button"
        aria-expanded={open}
        aria-controls="site-menu"
        ref={menuButton}
        onClick={() => setOpen((o) => !o)}
      >
        Menu
      </button>
      <div
        id="site-menu"
        className="pk-site-menu"
        data-open={open}
        onKeyDown={(e) => {
          if (e.key !== 'Escape' || !open) return
          setOpen(false)
          menuButton.current?.focus()
        }}
      >
        <nav aria-label="Main">
          <ul className="pk-nav">
            {sectionsFor(user).map((s) => (
              <li key={s.to}>
                <Link to={s.to} aria-current={isCurrent(s, pathname, hash) ? 'page' : undefined}>
                  {s.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="pk-user">
          <span>{user.name}</span>
          <Button variant="secondary" size="small" onClick={() => void logOut()}>
            Logout
          </Button>
        </div>
      </div>
    </>
  )
}
