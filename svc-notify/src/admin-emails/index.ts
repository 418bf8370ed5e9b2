export { adminEmailRepository } from './admin-email.repository.ts'
export { adminEmailRoutes } from './admin-email.routes.ts'
export { createAdminEmailService } from './admin-email.service.ts'
