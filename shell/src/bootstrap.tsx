import { ensureStyles } from '@portal/ui-kit'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { AuthProvider } from './auth/AuthProvider.tsx'
import { LeaveGuardProvider } from './leave/LeaveGuardProvider.tsx'
import { AppRoutes } from './routing/AppRoutes.tsx'

ensureStyles()

const root = document.getElementById('root')
if (!root) throw new Error('#root missing from index.html')

// A data router (not <BrowserRouter>) so a running exam can hold navigation (useBlocker); the
// route table stays in <AppRoutes>, under one catch-all route.
const router = createBrowserRouter([
  {
    path: '*',
    element: (
      <AuthProvider>
        <LeaveGuardProvider>
          <AppRoutes />
        </LeaveGuardProvider>
      </AuthProvider>
    ),
  },
])

createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
)
