// What the routes of every feature share: the path parameters' schemas.
export { IdParam, UserIdParam } from './params.ts'
