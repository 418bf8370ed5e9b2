import { addStyleSheet } from '@portal/ui-kit'

/** Styles of the exam screens only (kept out of the shared kit so the shell's first load stays small). */
const CSS = `
.pk-exam-facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:.75rem;margin:0}
.pk-exam-facts div{border:1px solid var(--c-border);border-radius:6px;padding:.625rem .75rem}
.pk-exam-facts dt{font-size:.8125rem;color:var(--c-muted);font-weight:600}
.pk-exam-facts dd{margin:0;font-size:1.25rem;font-weight:700}
.pk-exam-timer{display:flex;flex-direction:column;align-items:flex-end;padding:.25rem .75rem;border-radius:6px;border:1px solid var(--c-border)}
.pk-exam-clock{font-size:1.5rem;font-weight:700;font-variant-numeric:tabular-nums}
.pk-exam-timer--low{border-color:var(--c-danger);color:var(--c-danger)}
.pk-exam{max-width:1060px;margin:0 auto;width:100%}
/* The bar with the timer stays in view while the question scrolls. */
.pk-exam-bar{position:sticky;top:0;z-index:5;justify-content:space-between;padding:.75rem 1rem}
.pk-exam-question-title{scroll-margin-top:7rem}
.pk-exam-layout{display:grid;gap:1rem;align-items:start;grid-template-columns:minmax(0,1fr) 17rem}
@media (max-width:800px){.pk-exam-layout{grid-template-columns:minmax(0,1fr)}}
.pk-palette__grid{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(2.75rem,1fr));gap:.375rem}
.pk-palette__item{font:inherit;font-weight:700;min-width:2.75rem;min-height:2.75rem;display:inline-flex;align-items:center;justify-content:center;gap:.125rem;border-radius:6px;border:2px dashed #7b8794;background:#fff;color:var(--c-text);cursor:pointer}
.pk-palette__item.is-answered{border-style:solid;border-color:var(--c-primary);background:var(--c-primary);color:#fff}
.pk-palette__item.is-marked{box-shadow:inset 0 -4px 0 #b45309}
.pk-palette__item[aria-current=step]{box-shadow:0 0 0 3px var(--c-text)}
.pk-palette__item.is-marked[aria-current=step]{box-shadow:inset 0 -4px 0 #b45309,0 0 0 3px var(--c-text)}
.pk-palette__item:focus-visible{outline-offset:5px}
.pk-palette__item:disabled{opacity:.55;cursor:not-allowed}
.pk-palette__legend{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .75rem;font-size:.8125rem;color:var(--c-muted)}
.pk-palette__legend li{display:flex;align-items:center;gap:.375rem}
.pk-palette__legend .pk-palette__item{min-width:1rem;min-height:1rem;width:1rem;height:1rem;border-width:2px;cursor:default}
.pk-exam-clock-inline{font-variant-numeric:tabular-nums}
.pk-option{padding:.625rem .75rem;border:1px solid var(--c-border);border-radius:6px;cursor:pointer}
.pk-option:has(input:checked){border-color:var(--c-primary);background:var(--c-info-bg)}
.pk-btn[aria-pressed=true]{background:#fef3c7;border-color:#b45309;color:#78350f}
.pk-score{font-size:2.5rem;font-weight:800;line-height:1}
.pk-verdict{display:inline-block;padding:.25rem .75rem;border-radius:999px;font-weight:800;letter-spacing:.05em}
.pk-tone--green{background:#dcfce7;color:#14532d;border:1px solid #86efac}
.pk-tone--yellow{background:#fef9c3;color:#713f12;border:1px solid #fde047}
.pk-tone--red{background:#fee2e2;color:#7f1d1d;border:1px solid #fca5a5}
.pk-bar{height:.5rem;border-radius:999px;background:var(--c-border);overflow:hidden}
.pk-bar span{display:block;height:100%}
.pk-bar--green span{background:#16a34a}.pk-bar--yellow span{background:#ca8a04}.pk-bar--red span{background:#dc2626}
.pk-review{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.75rem}
.pk-review>li{border:1px solid var(--c-border);border-left-width:5px;border-radius:6px;padding:.75rem 1rem}
.pk-review>li.is-correct{border-left-color:#16a34a}.pk-review>li.is-incorrect{border-left-color:#dc2626}
.pk-review-options{list-style:none;margin:.5rem 0 0;padding:0;display:flex;flex-direction:column;gap:.25rem}
.pk-review-options li{padding:.375rem .625rem;border:1px solid var(--c-border);border-radius:6px}
.pk-review-options li.is-chosen{border-color:var(--c-primary);background:var(--c-info-bg)}
.pk-review-options li.is-right{border-color:#16a34a;border-width:2px}
.pk-badge--right{background:#dcfce7;color:#14532d}
`

export const ensureExamStyles = (): void => addStyleSheet('portal-exam-styles', CSS)
