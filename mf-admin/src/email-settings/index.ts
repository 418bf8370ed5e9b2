// The email-settings feature's public face: the admin e-mails' query keys. The Email Settings tab
// (email-settings/EmailSettingsTab.tsx, with its dialog) loads lazily when opened.
export { adminEmailKeys } from './data/apiHooks.ts'
