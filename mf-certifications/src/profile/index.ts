// The profile feature's public face: the profile's sections (a team member's page shows them too)
// and its query keys. The page itself is exposed as mf_certifications/TechnicianProfile; its
// dialogs (AddCertificationDialog, UploadProofDialog) load lazily when they open.
export { ProfileBody } from './ProfileBody.tsx'
export { profileKeys } from './data/apiHooks.ts'
