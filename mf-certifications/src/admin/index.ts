// The admin feature's public face: Certification Management's query keys. The page itself is
// exposed as mf_certifications/CertificationManagement.
export { adminKeys } from './data/apiHooks.ts'
