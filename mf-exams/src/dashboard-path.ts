/** Where exit, cancel and Return to Dashboard go (learner §6). */
export const dashboardPath = (isAdmin: boolean) => (isAdmin ? '/admin-dashboard' : '/user-dashboard')
