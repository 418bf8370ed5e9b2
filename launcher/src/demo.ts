/**
 * The admin registration code of the demo: single-node with demo data and no
 * ADMIN_REGISTRATION_CODE of its own, so Register as Admin (learner §2) works out of the box.
 * Printed at start beside the demo logins; a deployment sets its own code or none (decision 0040).
 */
export const DEMO_ADMIN_CODE = 'DEMO-ADMIN-CODE'
