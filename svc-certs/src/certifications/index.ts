/** What other features use of technicians' certifications: the entities, their reads and the access checks. */
export { requireEditableUser, requireReadableUser } from './access.ts'
export { CertificationPeriodEntity, TechnicianCertificationEntity } from './certification.entity.ts'
export { certificationFacts, certificationRepository, statusFacts, toCertificationPeriod, toUserCertification } from './certification.repository.ts'
export type { CertificationService, CompletionOutcome, CompletionRenewal } from './certification.service.ts'
