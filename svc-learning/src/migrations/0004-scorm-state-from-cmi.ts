import { Migration } from '@portal/server-kit'

/**
 * A SCO's suspend data and interactions live in its cmi tree only: the copies in their own
 * columns doubled what every commit wrote (the progress record now reads them from the tree).
 * Before the columns go, what only they held moves into the tree: a state saved through
 * POST /scorm/progress alone (empty tree), and suspend data saved that way over a committed tree.
 */
export class ScormStateFromCmi extends Migration {
  override async up() {
    this.addSql(`update scorm_states s set cmi = jsonb_build_object('cmi',
        case when m.scorm_version = '2004' then jsonb_build_object(
          'completion_status', case when s.lesson_status in ('passed', 'failed') then 'unknown' else s.lesson_status end,
          'success_status', case when s.lesson_status in ('passed', 'failed') then s.lesson_status else 'unknown' end,
          'score', jsonb_build_object('raw', coalesce(s.score::text, '')),
          'location', s.location, 'suspend_data', s.suspend_data, 'interactions', s.interactions)
        else jsonb_build_object(
          'core', jsonb_build_object('lesson_status', s.lesson_status, 'lesson_location', s.location,
            'score', jsonb_build_object('raw', coalesce(s.score::text, '')), 'total_time', s.total_time, 'session_time', s.session_time),
          'suspend_data', s.suspend_data, 'interactions', s.interactions) end)
      from course_modules m
      where m.id = s.module_id and s.cmi = '{}'::jsonb`)
    this.addSql(`update scorm_states set cmi = jsonb_set(cmi, '{cmi,suspend_data}', to_jsonb(suspend_data))
      where jsonb_typeof(cmi -> 'cmi') = 'object' and (cmi #>> '{cmi,suspend_data}') is distinct from suspend_data and suspend_data <> ''`)
    this.addSql('alter table scorm_states drop column suspend_data, drop column interactions')
  }
}
