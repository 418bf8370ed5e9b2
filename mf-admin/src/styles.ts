import { addStyleSheet } from '@portal/ui-kit'

/** Styles of the admin screens only (kept out of the shared kit so the shell's first load stays small). */
const CSS = `
.pk-file-picker{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem}
/* The native picker lies, unseen, over the label drawn as a button: the tap target is the button's whole box. */
.pk-file-picker__control{position:relative;display:inline-flex}
.pk-file-picker input[type=file]{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;cursor:pointer;z-index:1}
.pk-file-picker input[type=file]::file-selector-button{cursor:pointer}
.pk-file-picker input[type=file]:focus-visible+label{outline:3px solid var(--c-focus);outline-offset:2px}
.pk-file-picker label.pk-btn{font-size:1rem;display:inline-flex;align-items:center}
.pk-question__head{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .75rem;justify-content:space-between}
.pk-question__toggle{font:inherit;font-weight:700;background:none;border:none;padding:.25rem 0;min-height:24px;cursor:pointer;color:var(--c-text);display:inline-flex;gap:.5rem;align-items:center;text-align:left}
.pk-question__chevron{display:inline-block;transition:transform .15s}
.pk-question__toggle[aria-expanded=true] .pk-question__chevron{transform:rotate(90deg)}
.pk-question__summary{flex:1 1 16rem;min-width:0;color:var(--c-muted);font-size:.875rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.pk-dialog:has(.pk-import){max-width:min(920px,calc(100vw - 2rem))}
.pk-import-preview{max-height:320px;overflow-y:auto}
.pk-import-table td,.pk-import-table th{font-size:.8125rem;padding:.375rem .5rem}
.pk-dialog:has(.pk-wide){max-width:min(920px,calc(100vw - 2rem))}
/* The holder of a dialog opened from another dialog: no box of its own (its dialog is in the top layer). */
.pk-tone{display:inline-block;padding:.125rem .5rem;border-radius:999px;font-size:.8125rem;font-weight:600;border:1px solid transparent}
.pk-tone--green{background:#dcfce7;color:#14532d;border-color:#86efac}
.pk-tone--yellow{background:#fef9c3;color:#713f12;border-color:#fde047}
.pk-tone--red{background:#fee2e2;color:#7f1d1d;border-color:#fca5a5}
.pk-tone--blue{background:#dbeafe;color:#1e3a8a;border-color:#93c5fd}
.pk-tone--grey{background:#f1f5f9;color:#334155;border-color:#cbd5e1}
.pk-figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem;margin:0}
.pk-figure{border:1px solid var(--c-border);border-radius:var(--radius);padding:.5rem .75rem}
.pk-figure dt{font-size:.8125rem;color:var(--c-muted)}
.pk-figure dd{margin:0;font-size:1.375rem;font-weight:700}
/*
  The audit trail on a phone: each entry a block of lines, each line its column's name then the value
  (the names from data-label; the header row stays for screen readers, out of sight). Its last
  column is the entry's details, not the row's actions: it does not stand at the right edge.
*/
@media (max-width:760px){
.pk-audit .pk-table,.pk-audit .pk-table tbody,.pk-audit .pk-table tr{display:block}
.pk-audit .pk-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.pk-audit .pk-table tr{border-bottom:1px solid var(--c-border);padding:.5rem 0}
.pk-table-wrap.pk-audit .pk-table :is(td,td:last-child:not([colspan])){display:grid;grid-template-columns:4.5rem minmax(0,1fr);gap:.75rem;border:none;padding:.125rem 0;position:static;box-shadow:none;background:none;overflow-wrap:anywhere}
.pk-audit .pk-table td::before{content:attr(data-label);font-size:.8125rem;font-weight:600;color:var(--c-muted)}
}
`

export const ensureAdminStyles = (): void => addStyleSheet('portal-admin-styles', CSS)
