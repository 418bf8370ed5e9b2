import { Button } from '@portal/ui-kit'
import { Link, Outlet, useNavigate } from 'react-router'
import { useAuth } from '../auth/AuthProvider.tsx'

export const PRODUCT_NAME = 'Learning Portal'

/** Header with the product name and, when signed in, Logout; the page below. */
export const Layout = () => {
  const { state, signOut } = useAuth()
  const navigate = useNavigate()
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
              onClick={() => {
                signOut()
                navigate('/login', { replace: true })
              }}
            >
              Logout
            </Button>
          </div>
        ) : null}
      </header>
      <main className="pk-main">
        <Outlet />
      </main>
    </>
  )
}
