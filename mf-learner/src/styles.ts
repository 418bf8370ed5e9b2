import { addStyleSheet } from '@portal/ui-kit'

/** Styles of the learner dashboard only (kept out of the shared kit so the shell's first load stays small). */
const CSS = `
/* The dashboard's cards (the statistics here, the certification cards mf-certifications adds) on one
   grid of at most two columns whose rows end together: a card alone in the last row takes the row. */
.pk-dashboard-cards{display:flex;flex-wrap:wrap;gap:1rem}
.pk-dashboard-cards>*,.pk-dashboard-cards>.pk-grid>*{flex:1 1 max(18rem,40%);min-width:0}
/* The hosted remote's own grid of cards joins this one. */
.pk-dashboard-cards>.pk-grid{display:contents}
/* A card's figures: as many in a row as there are, or half of them when the card is narrow (2 + 2, not 3 + 1). */
.pk-stat-card{container-type:inline-size}
.pk-stat-tiles{--pk-cols:var(--pk-tiles);display:grid;gap:.75rem;margin:0;grid-template-columns:repeat(var(--pk-cols),minmax(0,1fr))}
@container (max-width:34rem){.pk-stat-tiles[data-tiles="4"]{--pk-cols:2}}
`

export const ensureLearnerStyles = (): void => addStyleSheet('portal-learner-styles', CSS)
