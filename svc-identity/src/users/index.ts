export { UserEntity, toUserDto, userFacts } from './user.entity.ts'
export { userRepository } from './user.repository.ts'
export { userRoutes } from './user.routes.ts'
export { createUserService } from './user.service.ts'
