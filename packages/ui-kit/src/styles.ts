/** The portal's one stylesheet, injected once by whoever renders first (shell or a remote alone). */
const CSS = `
:root{--c-bg:#f5f7fa;--c-surface:#fff;--c-text:#1f2933;--c-muted:#52606d;--c-border:#d9e2ec;--c-primary:#1d4ed8;--c-primary-hover:#1e40af;--c-danger:#b91c1c;--c-danger-bg:#fef2f2;--c-success:#166534;--c-success-bg:#f0fdf4;--c-info-bg:#eff6ff;--c-focus:#c2410c;--radius:8px;--shadow:0 1px 3px rgba(15,23,42,.12),0 1px 2px rgba(15,23,42,.06);font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--c-text);background:var(--c-bg);line-height:1.5}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh}
a{color:var(--c-primary)}
/* A text link is a tap target of at least 24 px (WCAG 2.5.8): the padding grows its box, not the line. */
a:not(.pk-btn){padding-block:max(4px,calc(12.5px - .55em))}
/* The focus ring: at least 3:1 against white, the page and the dark header alike (issue 15 item 4). */
:focus-visible{outline:3px solid var(--c-focus);outline-offset:2px}
/* A page heading focused on navigation (issue 15 item 4) is not a control: read, not ringed (as GOV.UK does). */
:is(h1,h2)[tabindex="-1"]:focus-visible{outline:none}
h1,h2,h3{line-height:1.25;margin:0 0 .75rem}
.pk-header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;padding:.75rem 1.5rem;background:#0f172a;color:#fff}
.pk-header a{color:#fff;text-decoration:none}
.pk-brand{font-weight:700;font-size:1.125rem}
.pk-header .pk-user{display:flex;align-items:center;gap:.75rem;font-size:.875rem}
.pk-site-menu{display:flex;flex:1;align-items:center;justify-content:space-between;gap:.5rem 1rem;flex-wrap:wrap}
.pk-nav{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0;padding:0}
.pk-nav a{display:block;font-weight:600;font-size:.9375rem;padding:.375rem .75rem;border-radius:6px}
.pk-nav a:hover{background:#1e293b}
.pk-nav a[aria-current=page]{background:#1e293b;box-shadow:inset 0 -3px 0 #93c5fd}
.pk-menu-button{display:none}
@media (max-width:760px){.pk-menu-button{display:inline-block}.pk-site-menu{display:none;flex-basis:100%;flex-direction:column;align-items:stretch}.pk-site-menu[data-open=true]{display:flex}.pk-nav{flex-direction:column}.pk-header .pk-user{justify-content:space-between;border-top:1px solid #334155;padding-top:.5rem}}
.pk-main{max-width:1100px;margin:0 auto;padding:1.5rem}
.pk-card{background:var(--c-surface);border:1px solid var(--c-border);border-radius:var(--radius);box-shadow:var(--shadow);padding:1.5rem}
.pk-auth{max-width:420px;margin:2rem auto}
.pk-stack{display:flex;flex-direction:column;gap:1rem}
.pk-row{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center}
.pk-grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fill,minmax(var(--pk-grid-min,240px),1fr))}
.pk-plain-list{list-style:none;margin:0;padding:0}
.pk-muted{color:var(--c-muted)}
.pk-field{display:flex;flex-direction:column;gap:.25rem}
.pk-field label{font-weight:600;font-size:.875rem}
.pk-field input,.pk-field select{font:inherit;padding:.5rem .625rem;border:1px solid #9aa5b1;border-radius:6px;background:#fff;color:inherit;min-height:2.5rem}
.pk-field select[multiple]{min-height:6rem}
.pk-field input[aria-invalid=true],.pk-field select[aria-invalid=true]{border-color:var(--c-danger)}
.pk-field .pk-error{color:var(--c-danger);font-size:.8125rem}
.pk-field .pk-hint{color:var(--c-muted);font-size:.8125rem}
.pk-check{display:flex;gap:.5rem;align-items:center;font-weight:600;font-size:.875rem}
.pk-check input{width:1.1rem;height:1.1rem}
.pk-input-row{display:flex;gap:.5rem}.pk-input-row input{flex:1}
.pk-btn{font:inherit;font-weight:600;border-radius:6px;padding:.5rem 1rem;min-height:2.5rem;cursor:pointer;border:1px solid transparent;background:var(--c-primary);color:#fff}
.pk-btn:hover:not(:disabled){background:var(--c-primary-hover)}
a.pk-btn{display:inline-block;text-align:center}
a.pk-btn:not(.pk-btn--link){text-decoration:none}
.pk-btn:disabled,.pk-btn[aria-disabled=true]{opacity:.55;cursor:not-allowed}
.pk-btn--secondary{background:#fff;color:var(--c-text);border-color:#9aa5b1}
.pk-btn--secondary:hover:not(:disabled){background:#eef2f6}
.pk-btn--danger{background:var(--c-danger)}
.pk-btn--danger:hover:not(:disabled){background:#991b1b}
.pk-btn--link{background:none;color:var(--c-primary);padding:0;min-height:24px;text-decoration:underline;font-weight:500}
.pk-btn--link:hover:not(:disabled){background:none}
.pk-btn--icon{min-width:24px;min-height:24px;padding:0 .25rem;display:inline-flex;align-items:center;justify-content:center;text-decoration:none;font-size:1.125rem;line-height:1}
.pk-btn--small{padding:.25rem .625rem;min-height:2rem;font-size:.875rem}
.pk-header .pk-btn--secondary{background:transparent;color:#fff;border-color:#64748b}
.pk-header .pk-btn--secondary:hover{background:#1e293b}
.pk-alert{padding:.75rem 1rem;border-radius:6px;border:1px solid;font-size:.9375rem}
.pk-alert--error{background:var(--c-danger-bg);border-color:#fecaca;color:var(--c-danger)}
.pk-alert--success{background:var(--c-success-bg);border-color:#bbf7d0;color:var(--c-success)}
.pk-alert--info{background:var(--c-info-bg);border-color:#bfdbfe;color:#1e3a8a}
.pk-spinner{display:flex;justify-content:center;align-items:center;gap:.75rem;padding:2rem;color:var(--c-muted)}
.pk-spinner::before{content:"";width:1.5rem;height:1.5rem;border-radius:50%;border:3px solid var(--c-border);border-top-color:var(--c-primary);animation:pk-spin .8s linear infinite}
@keyframes pk-spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.pk-spinner::before{animation-duration:3s}}
.pk-dialog{border:none;border-radius:var(--radius);padding:0;max-width:min(520px,calc(100vw - 2rem));width:100%;box-shadow:0 20px 40px rgba(15,23,42,.3)}
.pk-dialog::backdrop{background:rgba(15,23,42,.55)}
.pk-dialog__body{padding:1.5rem}
.pk-empty{padding:1.25rem;text-align:center;color:var(--c-muted);border:1px dashed var(--c-border);border-radius:var(--radius)}
.pk-badge{display:inline-block;padding:.125rem .5rem;border-radius:999px;font-size:.75rem;font-weight:600;background:#e0e7ff;color:#3730a3;margin-left:.375rem}
.pk-badge--danger{background:#fee2e2;color:#7f1d1d}.pk-badge--warning{background:#fef3c7;color:#78350f}.pk-badge--info{background:#dbeafe;color:#1e3a8a}.pk-badge--success{background:#dcfce7;color:#14532d}.pk-badge--neutral{background:#f1f5f9;color:#334155}
/* Positioned, so a visually hidden label in a cell stays inside the scrolling box instead of widening the page. */
.pk-table-wrap{overflow-x:auto;position:relative}
.pk-table{width:100%;border-collapse:collapse;font-size:.9375rem}
.pk-table th,.pk-table td{text-align:left;padding:.625rem .75rem;border-bottom:1px solid var(--c-border);vertical-align:top}
.pk-table th{font-size:.8125rem;text-transform:uppercase;letter-spacing:.03em;color:var(--c-text)}
.pk-table th[scope=row]{font-size:inherit;text-transform:none;letter-spacing:normal;font-weight:600}
/* One row of tabs that scrolls sideways on a phone instead of wrapping into rows (issue 15 item 7). */
.pk-tabs-strip{position:relative;margin-bottom:1.25rem;--pk-tabs-bg:var(--c-bg)}
.pk-card .pk-tabs-strip{--pk-tabs-bg:var(--c-surface)}
.pk-tabs{display:flex;gap:.25rem;overflow-x:auto;scrollbar-width:thin;scroll-padding-inline:2.75rem;box-shadow:inset 0 -2px 0 var(--c-border);padding:3px 3px 0}
/* An end of the row that hides tabs fades out under an arrow that scrolls that way (components/Tabs.tsx). */
.pk-tabs__more{position:absolute;top:0;bottom:2px;z-index:1;width:2.75rem;display:flex;align-items:center;border:none;padding:0 .25rem;font:inherit;font-size:1.75rem;line-height:1;font-weight:700;color:var(--c-primary);cursor:pointer}
.pk-tabs__more--start{left:0;justify-content:flex-start;background:linear-gradient(to right,var(--pk-tabs-bg) 50%,transparent)}
.pk-tabs__more--end{right:0;justify-content:flex-end;background:linear-gradient(to left,var(--pk-tabs-bg) 50%,transparent)}
.pk-tab{flex:none;white-space:nowrap;font:inherit;font-weight:600;background:none;border:none;border-bottom:3px solid transparent;padding:.625rem 1rem;cursor:pointer;color:var(--c-text)}
.pk-tab:focus-visible{outline-offset:-3px}
.pk-tab[aria-selected=true]{color:var(--c-primary);border-bottom-color:var(--c-primary)}
.pk-live:empty{position:absolute}
.pk-visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
/* A main area beside a side list; on a phone the main area comes first (the lesson before the module list). */
.pk-split{display:flex;flex-wrap:wrap;gap:1.25rem;align-items:flex-start}
.pk-split__side{flex:1 1 260px;max-width:360px}
.pk-split__main{flex:999 1 480px;min-width:0}
@media (max-width:760px){.pk-split__main{order:-1}.pk-split__side{max-width:none}
/* A table wider than a phone scrolls, its last column (the row's actions) stays in view at the right edge. */
.pk-table-wrap .pk-table :is(th,td):last-child:not([colspan]){position:sticky;right:0;background:var(--c-surface);box-shadow:-8px 0 8px -8px rgba(15,23,42,.35)}}
/* The on/off switch (components/Switch.tsx). */
.pk-switch{display:inline-flex;align-items:center;gap:.5rem;font:inherit;font-weight:600;background:none;border:1px solid #9aa5b1;border-radius:999px;padding:.25rem .75rem .25rem .25rem;min-height:2.25rem;cursor:pointer;color:inherit}
.pk-switch[aria-disabled=true]{opacity:.6;cursor:progress}
.pk-switch__track{position:relative;width:2.75rem;height:1.5rem;border-radius:999px;background:#64748b;flex:none}
.pk-switch__track::after{content:"";position:absolute;top:.1875rem;left:.1875rem;width:1.125rem;height:1.125rem;border-radius:50%;background:#fff;transition:left .15s}
.pk-switch[aria-checked=true] .pk-switch__track{background:#15803d}
.pk-switch[aria-checked=true] .pk-switch__track::after{left:1.4375rem}
@media (prefers-reduced-motion:reduce){.pk-switch__track::after{transition:none}}
/* A sortable column header (components/DataTable.tsx). */
.pk-sort{font:inherit;font-weight:inherit;text-transform:inherit;letter-spacing:inherit;color:inherit;background:none;border:none;padding:.25rem 0;min-height:24px;cursor:pointer;display:inline-flex;gap:.375rem;align-items:center}
.pk-sort__arrow{font-size:.75em;color:var(--c-muted)}
th[aria-sort=ascending] .pk-sort,th[aria-sort=descending] .pk-sort{color:var(--c-primary)}
/* One-property helpers where a screen needs a nudge; they stand where inline styles stood, so they win (!important). Longhands follow shorthands. */
.pk-font-inherit{font:inherit!important}
.pk-m0{margin:0!important}
.pk-p0{padding:0!important}
.pk-ml0{margin-left:0!important}
.pk-mx-auto{margin:0 auto!important}
.pk-mt-xs{margin:.25rem 0 0!important}
.pk-mt-m{margin:.5rem 0 0!important}
.pk-mt-auto{margin-top:auto!important}
.pk-mb-xs{margin-bottom:.25rem!important}
.pk-mb-m{margin:0 0 .5rem!important}
.pk-mb-s{margin:0 0 .375rem!important}
.pk-gap-xs{gap:.25rem!important}
.pk-gap-s{gap:.375rem!important}
.pk-gap-m{gap:.5rem!important}
.pk-gap-l{gap:.75rem!important}
.pk-gap-xl{gap:1rem!important}
.pk-gap-xxl{gap:1.5rem!important}
.pk-between{justify-content:space-between!important}
.pk-justify-end{justify-content:flex-end!important}
.pk-items-start{align-items:flex-start!important}
.pk-items-end{align-items:flex-end!important}
.pk-items-center{align-items:center!important}
.pk-items-baseline{align-items:baseline!important}
.pk-fw-normal{font-weight:400!important}
.pk-fw-medium{font-weight:500!important}
.pk-fw-semibold{font-weight:600!important}
.pk-fw-bold{font-weight:700!important}
.pk-fs-12{font-size:.75rem!important}
.pk-fs-13{font-size:.8125rem!important}
.pk-fs-14{font-size:.875rem!important}
.pk-fs-15{font-size:.9375rem!important}
.pk-fs-16{font-size:1rem!important}
.pk-fs-17{font-size:1.0625rem!important}
.pk-fs-18{font-size:1.125rem!important}
.pk-fs-20{font-size:1.25rem!important}
.pk-fs-24{font-size:1.5rem!important}
.pk-list-none{list-style:none!important}
.pk-border-0{border:0!important}
.pk-border{border:1px solid var(--c-border)!important}
.pk-border-dashed{border:1px dashed var(--c-border)!important}
.pk-rounded{border-radius:8px!important}
.pk-rounded-sm{border-radius:6px!important}
.pk-rounded-full{border-radius:999px!important}
.pk-min-w0{min-width:0!important}
.pk-flex-1{flex:1!important}
.pk-w-full{width:100%!important}
.pk-inline{display:inline!important}
.pk-block{display:block!important}
.pk-flex{display:flex!important}
.pk-grid-plain{display:grid!important}
.pk-inline-flex{display:inline-flex!important}
.pk-col{flex-direction:column!important}
.pk-break{overflow-wrap:anywhere!important}
.pk-text-danger{color:var(--c-danger)!important}
.pk-text-success{color:var(--c-success)!important}
.pk-text-body{color:var(--c-text)!important}
.pk-pre-wrap{white-space:pre-wrap!important}
.pk-no-underline{text-decoration:none!important}
.pk-nowrap{flex-wrap:nowrap!important}
.pk-pl-list{padding-left:1.25rem!important}
.pk-pl-m{padding-left:1rem!important}
.pk-pad{padding:1rem!important}
.pk-pad-s{padding:.75rem 1rem!important}
.pk-pad-l{padding:1.25rem!important}
.pk-grow-240{flex:1 1 240px!important}
.pk-grow-200{flex:1 1 200px!important}
.pk-grow-180{flex:1 1 180px!important}
.pk-clip{overflow:hidden!important}
.pk-scroll-y{overflow-y:auto!important}
.pk-text-right{text-align:right!important}
.pk-lh-1{line-height:1!important}
.pk-pointer{cursor:pointer!important}
.pk-bg-none{background:none!important}
.pk-color-inherit{color:inherit!important}
.pk-bg-border{background:var(--c-border)!important}
.pk-bg-success{background:var(--c-success-bg)!important}
.pk-w-170{flex:0 1 170px!important}
.pk-w-200{flex:0 1 200px!important}
.pk-w-360{flex:0 1 360px!important}
.pk-grow-260{flex:1 1 260px!important}
.pk-grow-256{flex:1 1 16rem!important}
.pk-grow-192{flex:1 1 12rem!important}
.pk-flex-2{flex:2!important}
.pk-min-w200{min-width:200px!important}
.pk-min-w220{min-width:220px!important}
.pk-min-w140{min-width:140px!important}
.pk-min-w44{min-width:2.75rem!important}
.pk-max-w360{max-width:360px!important}
.pk-max-w400{max-width:400px!important}
.pk-max-w640{max-width:640px!important}
.pk-max-w820{max-width:820px!important}
.pk-below-label-lg{margin-top:1.9rem!important}
.pk-below-label{margin-top:1.75rem!important}
.pk-below-label-sm{margin-top:1.6rem!important}
.pk-scroll-x{overflow-x:auto!important}
.pk-min-h-control{min-height:2.5rem!important}
.pk-pl-xs{padding-left:.25rem!important}
.pk-my-xxs{margin:.125rem 0!important}
.pk-pad-xs{padding:.625rem .75rem!important}
.pk-py-xs{padding:.25rem 0!important}
.pk-pad-s2{padding:.5rem .75rem!important}
.pk-pad-chip{padding:.0625rem .5rem!important}
.pk-max-h280{max-height:280px!important}
.pk-max-h256{max-height:16rem!important}
.pk-scroll{overflow:auto!important}
.pk-h-8{height:8px!important}
.pk-grid-300{grid-template-columns:repeat(auto-fit,minmax(300px,1fr))!important}
.pk-grid-140{grid-template-columns:repeat(auto-fit,minmax(140px,1fr))!important}
@media (max-width:600px){.pk-main{padding:1rem}.pk-card{padding:1rem}.pk-header{padding:.75rem 1rem}}
/* Issue 30, certification screens on a phone. A field's select is never wider than its field (a long option no longer widens the page). */
.pk-field{min-width:0}
.pk-field select{max-width:100%}
/* A table whose rows become labelled cards on a phone (DataTable className="pk-table--stack"; each cell but the row's title and actions says its column in data-label). Sortable headers stay as a "Sort by" row of buttons; the others are kept for screen readers only. */
@media (max-width:760px){
.pk-table--stack,.pk-table--stack :is(tbody,tr,th,td){display:block}
.pk-table--stack thead tr{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem}
.pk-table--stack thead tr:has(th[aria-sort])::before{content:"Sort by";content:"Sort by"/"";font-size:.8125rem;font-weight:600;color:var(--c-muted)}
.pk-table-wrap .pk-table.pk-table--stack :is(th,td),.pk-table-wrap .pk-table.pk-table--stack :is(th,td):last-child:not([colspan]){position:static;border:0;padding:.25rem 0;box-shadow:none;background:none}
.pk-table--stack thead th:not([aria-sort]){position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.pk-table--stack tbody tr{border:1px solid var(--c-border);border-radius:var(--radius);padding:.5rem .75rem;margin-top:.75rem}
.pk-table-wrap .pk-table.pk-table--stack td[data-label]:not([colspan]){display:flow-root;padding-left:8.5rem}
.pk-table--stack td[data-label]::before{content:attr(data-label);content:attr(data-label)/"";float:left;width:8rem;margin-left:-8.5rem;font-size:.8125rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em;color:var(--c-muted);overflow-wrap:anywhere}
}
`

/** Adds a stylesheet to the document once, by its element id (a remote's own styles too). */
export const addStyleSheet = (id: string, css: string): void => {
  if (typeof document === 'undefined' || document.getElementById(id)) return
  const style = document.createElement('style')
  style.id = id
  style.textContent = css
  document.head.append(style)
}

/** Adds the portal's stylesheet to the document once. */
export const ensureStyles = (): void => addStyleSheet('portal-ui-kit-styles', CSS)
