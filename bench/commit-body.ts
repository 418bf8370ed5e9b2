/** A realistic SCORM 1.2 commit of about 8 KB: the whole cmi tree with suspend data and interactions. */
export function commitBody(itemId: string, seq: number): Record<string, unknown> {
  const interactions = Array.from({ length: 8 }, (_, i) => ({
    id: `q${i + 1}`,
    time: '10:15:0' + (i % 10),
    type: 'choice',
    weighting: '1',
    student_response: 'a',
    result: i % 3 ? 'correct' : 'wrong',
    latency: '00:00:12',
    objectives: { childArray: [{ id: `obj${i % 3}` }] },
    correct_responses: { childArray: [{ pattern: 'a' }] },
  }))
  return {
    itemId,
    seq,
    terminated: false,
    successStatus: 'unknown',
    completionStatus: 'incomplete',
    totalTimeSeconds: 600 + seq,
    score: { raw: 80, min: 0, max: 100 },
    runtimeData: {
      suspend_data: 'x'.repeat(5_300) + String(seq),
      launch_data: '',
      comments: '',
      comments_from_lms: '',
      core: {
        student_id: 'learner-1',
        student_name: 'Learner, Bench',
        lesson_location: `page-${seq % 20}`,
        credit: 'credit',
        lesson_status: 'incomplete',
        entry: 'resume',
        total_time: '00:10:00',
        lesson_mode: 'normal',
        exit: 'suspend',
        session_time: '00:00:05',
        score: { raw: '80', min: '0', max: '100' },
      },
      objectives: { childArray: [0, 1, 2].map((i) => ({ id: `obj${i}`, status: 'incomplete', score: { raw: '', min: '', max: '' } })) },
      student_data: { mastery_score: '80', max_time_allowed: '', time_limit_action: '' },
      student_preference: { audio: '0', language: 'en', speed: '0', text: '0' },
      interactions: { childArray: interactions },
    },
  }
}
