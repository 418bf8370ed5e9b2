/** What other features use of technicians: their row (tier, pause, rev/pay ratio) and the profile service. */
export { TechnicianEntity } from './technician.entity.ts'
export { technicianRepository } from './technician.repository.ts'
export type { TechnicianService } from './technician.service.ts'
