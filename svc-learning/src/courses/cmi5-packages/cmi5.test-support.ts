/** cmi5.xml texts for the package tests. */

const NS = 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd'

/**
 * A generated course structure: `aus` AUs, grouped in blocks of `perBlock` (0: no blocks), each AU
 * with a url from `url` (default an absolute one) and a moveOn/launchMethod/masteryScore.
 */
export function cmi5Structure(opts: { aus: number; perBlock: number; url?: (i: number) => string; title?: string }): string {
  const base = 'https://example.com/course/big'
  const url = opts.url ?? ((i: number) => `https://aus.example.com/${i}.html`)
  const au = (i: number) =>
    `<au id="${base}/au/${i}" moveOn="${i % 2 ? 'Completed' : 'Passed'}" masteryScore="0.8" launchMethod="${i % 3 ? 'AnyWindow' : 'OwnWindow'}">` +
    `<title><langstring lang="en-US">Unit ${i}</langstring></title><description><langstring lang="en-US">Unit ${i} of the course</langstring></description>` +
    `<url>${url(i)}</url></au>`
  const members: string[] = []
  if (opts.perBlock > 0) {
    for (let b = 0; b * opts.perBlock < opts.aus; b++) {
      const inside: string[] = []
      for (let i = b * opts.perBlock; i < Math.min(opts.aus, (b + 1) * opts.perBlock); i++) inside.push(au(i))
      members.push(
        `<block id="${base}/block/${b}"><title><langstring lang="en-US">Block ${b}</langstring></title><description><langstring lang="en-US">Part ${b}</langstring></description>${inside.join('\n')}</block>`,
      )
    }
  } else {
    for (let i = 0; i < opts.aus; i++) members.push(au(i))
  }
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="${NS}">
  <course id="${base}"><title><langstring lang="en-US">${opts.title ?? 'A big course'}</langstring></title><description><langstring lang="en-US">Many units</langstring></description></course>
  ${members.join('\n')}
</courseStructure>`
}
