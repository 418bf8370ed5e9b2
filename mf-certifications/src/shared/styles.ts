/** Styles of the certification screens only (kept out of the shared kit so the shell's first load stays small). */
const CSS = `
.ct-badge{display:inline-block;padding:.125rem .5rem;border-radius:999px;font-size:.8125rem;font-weight:700;border:1px solid;white-space:nowrap}
.ct-tone--red{background:#fee2e2;color:#7f1d1d;border-color:#f87171}
.ct-tone--yellow{background:#fef9c3;color:#713f12;border-color:#eab308}
.ct-tone--blue{background:#dbeafe;color:#1e3a8a;border-color:#60a5fa}
.ct-tone--green{background:#dcfce7;color:#14532d;border-color:#4ade80}
.ct-tone--orange{background:#ffedd5;color:#7c2d12;border-color:#fb923c}
.ct-tone--grey{background:#f1f5f9;color:#334155;border-color:#94a3b8}
.ct-facts{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));margin:0}
.ct-facts div{min-width:0}
.ct-facts dt{font-size:.8125rem;color:var(--c-muted);font-weight:600}
.ct-facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.ct-figures{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));margin:0}
.ct-figures div{border:1px solid var(--c-border);border-radius:6px;padding:.625rem .75rem}
.ct-figures dt{font-size:.8125rem;color:var(--c-muted);font-weight:600}
.ct-figures dd{margin:0;font-size:1.25rem;font-weight:700}
.ct-figures dd.ct-none{font-size:.9375rem;font-weight:600;color:var(--c-muted)}
.ct-figures dd.ct-figure-help{font-size:.75rem;font-weight:400;margin-top:.25rem;line-height:1.35}
/* A long badge ("2 people, 3 assignments") wraps inside a figure's tile or a table row's card on a phone (issue 30). */
.ct-figures .ct-badge,.pk-table--stack .ct-badge{white-space:normal}
.ct-list{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.75rem}
.ct-cards{list-style:none;margin:0;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(300px,1fr))}
.ct-card{border:1px solid var(--c-border);border-radius:8px;padding:1rem;display:flex;flex-direction:column;gap:.625rem;min-width:0}
.ct-card h4{margin:0;font-size:1.0625rem}
.ct-card .ct-actions{display:flex;flex-wrap:wrap;gap:.5rem}
.ct-history{border-top:1px solid var(--c-border);padding-top:.5rem}
.ct-history-toggle{display:flex;width:100%;align-items:center;gap:.375rem;font:inherit;font-weight:600;text-align:left;background:none;border:0;padding:.25rem 0;cursor:pointer;color:inherit}
.ct-history-toggle::before{content:"▸";font-size:.9rem}
.ct-history-toggle[aria-expanded=true]::before{content:"▾"}
.ct-periods{list-style:none;margin:.5rem 0 0;padding:0;display:flex;flex-direction:column;gap:.75rem}
.ct-period{border-left:3px solid var(--c-border);padding-left:.625rem;display:flex;flex-direction:column;gap:.375rem}
.ct-viewer{border:1px solid var(--c-border);border-radius:6px;padding:.5rem;display:flex;flex-direction:column;gap:.5rem}
.ct-viewer iframe{width:100%;height:420px;border:0;background:#fff}
.ct-viewer img{max-width:100%;height:auto}
.ct-bar{height:.625rem;border-radius:999px;background:var(--c-border);overflow:hidden}
.ct-bar span{display:block;height:100%;background:var(--c-primary)}
.ct-bar--done span{background:#15803d}
.ct-tier-toggle{display:flex;width:100%;align-items:center;justify-content:space-between;gap:.75rem;font:inherit;font-weight:700;font-size:1.0625rem;text-align:left;background:#f8fafc;border:1px solid var(--c-border);border-radius:6px;padding:.625rem .875rem;cursor:pointer;color:inherit}
.ct-tier-toggle::after{content:"▸";font-size:1rem}
.ct-tier-toggle[aria-expanded=true]::after{content:"▾"}
.ct-textarea{font:inherit;padding:.5rem .625rem;border:1px solid #9aa5b1;border-radius:6px;min-height:5rem;resize:vertical}
.ct-filters{display:grid;gap:.75rem;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));align-items:end}
.ct-filters--fields{align-items:start}
.ct-chart{margin:0;display:flex;flex-direction:column;gap:.5rem}
.ct-chart svg{width:100%;max-width:760px;height:auto}
.ct-mine td{background:#eff6ff;font-weight:700}
.ct-nowrap{white-space:nowrap}
/* A table without row actions: on a phone it scrolls as a whole, no column pinned over the others. */
.pk-table-wrap.ct-scroll-all .pk-table :is(th,td):last-child:not([colspan]){position:static;box-shadow:none}

`

/** Adds the certification screens' stylesheet to the document once. */
export const ensureCertStyles = (): void => {
  if (typeof document === 'undefined' || document.getElementById('portal-cert-styles')) return
  const style = document.createElement('style')
  style.id = 'portal-cert-styles'
  style.textContent = CSS
  document.head.append(style)
}
