/**
 * The Node flags svc-certs runs with as a process of its own (its image, cluster mode, the team
 * benchmark): V8's young generation at most 2 x 8 MB. Left to its default, V8 grows it to 2 x 64
 * MB during a long read such as a team export's 80,000 certifications and keeps it, which alone
 * put the service about 100 MB over its 200 MB goal (decision 0037).
 */
export const CERTS_NODE_FLAGS = ['--max-semi-space-size=8'] as const
