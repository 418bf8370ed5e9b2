/** What other features use of the team dashboard (none today: the app wires its summary into the consistency check). */
export { teamRepository } from './team.repository.ts'
