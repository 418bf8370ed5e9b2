export { UserGroupEntity, groupFacts } from './group.entity.ts'
export { groupRepository } from './group.repository.ts'
export { groupRoutes } from './group.routes.ts'
export { createGroupService } from './group.service.ts'
