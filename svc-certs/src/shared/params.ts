import { z } from 'zod'

/** A numeric id in a path: anything else is not a route (404), never a 500. */
export const IdParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) })

/** A user's id in a path (`/…/:userId`). */
export const UserIdParam = z.object({ userId: z.uuid('Invalid user id') })
