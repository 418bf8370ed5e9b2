// What the routes of every feature share: the path parameters' schemas.
export { IdParam } from './params.ts'
