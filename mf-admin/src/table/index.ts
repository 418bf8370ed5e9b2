// The admin tabs' shared table: search, sort and paging state (table-view.ts) and its controls (AdminTable.tsx).
export { Pager, SortHeader, TableSearch, useAdminTable } from './AdminTable.tsx'
export { byNumber, byText, type TableColumns } from './table-view.ts'
