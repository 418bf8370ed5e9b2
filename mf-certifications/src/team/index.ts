// The team feature's public face: the revenue trend, drawn on revenue entry too. Its pages are
// exposed as mf_certifications/TeamDashboard and mf_certifications/TeamMember; its query keys
// (data/apiHooks.ts) are its own.
export { trendPoints } from './team-view.ts'
export { TrendChart } from './TrendChart.tsx'
