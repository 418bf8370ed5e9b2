// The signed-in frame (header, navigation, main) and the page titles it announces.
export { Layout } from './Layout.tsx'
export { announcePage, Titled } from './page-announcer.tsx'
