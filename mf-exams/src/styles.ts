/** Styles of the exam screens only (kept out of the shared kit so the shell's first load stays small). */
const CSS = `
.pk-exam-facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:.75rem;margin:0}
.pk-exam-facts div{border:1px solid var(--c-border);border-radius:6px;padding:.625rem .75rem}
.pk-exam-facts dt{font-size:.8125rem;color:var(--c-muted);font-weight:600}
.pk-exam-facts dd{margin:0;font-size:1.25rem;font-weight:700}
.pk-exam-timer{display:flex;flex-direction:column;align-items:flex-end;padding:.25rem .75rem;border-radius:6px;border:1px solid var(--c-border)}
.pk-exam-clock{font-size:1.5rem;font-weight:700;font-variant-numeric:tabular-nums}
.pk-exam-timer--low{border-color:var(--c-danger);color:var(--c-danger)}
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
.pk-review li{border:1px solid var(--c-border);border-left-width:5px;border-radius:6px;padding:.75rem 1rem}
.pk-review li.is-correct{border-left-color:#16a34a}.pk-review li.is-incorrect{border-left-color:#dc2626}
`

export const ensureExamStyles = (): void => {
  if (typeof document === 'undefined' || document.getElementById('portal-exam-styles')) return
  const style = document.createElement('style')
  style.id = 'portal-exam-styles'
  style.textContent = CSS
  document.head.append(style)
}
