// The courses feature's public face: the dashboard's course cards and their data. The viewer
// (courses/CourseViewer.tsx, with the SCORM runtime) is loaded lazily when a course is opened.
export { ContinueCard } from './ContinueCard.tsx'
export { MyCoursesCard } from './MyCoursesCard.tsx'
export { courseKeys } from './data/apiHooks.ts'
