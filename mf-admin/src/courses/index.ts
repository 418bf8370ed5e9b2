// The courses feature's public face: the course list (the courses a group's report may track). The
// Courses tab (courses/CoursesTab.tsx, with the form and the SCORM editors) loads lazily when opened.
export { courseKeys, useAdminCourses } from './data/apiHooks.ts'
