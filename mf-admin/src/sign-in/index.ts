// The sign-in feature's public face: the providers' query keys. The Sign-in tab
// (sign-in/SignInTab.tsx, with its dialog) loads lazily when opened.
export { signInKeys } from './data/apiHooks.ts'
