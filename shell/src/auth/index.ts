// What the routes and the layout take from auth: the session's state and the sign-in page. The
// pages off the first-load path are lazy components, split out to keep the login page light.
import { lazy } from 'react'

export { useAuth, type AuthState } from './AuthProvider.tsx'
export { LoginPage } from './LoginPage.tsx'
export const RegisterPage = lazy(() => import('./RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })))
export const ForgotPasswordPage = lazy(() => import('./ForgotPasswordPage.tsx').then((m) => ({ default: m.ForgotPasswordPage })))
export const ResetPasswordPage = lazy(() => import('./ResetPasswordPage.tsx').then((m) => ({ default: m.ResetPasswordPage })))
