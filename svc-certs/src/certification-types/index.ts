/** What other features use of certification types and tier requirements (features import each other only through their index). */
export { CertificationTypeEntity, TierRequirementEntity, toCertificationBrief } from './certification-type.entity.ts'
export { certificationTypeRepository, toTierRequirement } from './certification-type.repository.ts'
export { typeNotFound } from './certification-type.service.ts'
