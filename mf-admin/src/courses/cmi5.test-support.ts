/** A cmi5 course structure for the form's tests: a block of `aus` AUs; the title has a German and an English langstring. */
export const cmi5Xml = (aus = 2, title = '<langstring lang="de-DE">Gesteine</langstring><langstring lang="en-US">Rocks &amp; stones</langstring>') => `<?xml version="1.0"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.com/c"><title>${title}</title><description><langstring lang="en-US">About rocks</langstring></description></course>
  <!-- <au id="https://example.com/commented-out"/> -->
  <block id="https://example.com/b"><title><langstring lang="en-US">Block</langstring></title>
${Array.from({ length: aus }, (_, i) => `    <au id="https://example.com/au/${i}"><title><langstring lang="en-US">AU ${i}</langstring></title><url>au${i}.html</url></au>`).join('\n')}
  </block>
</courseStructure>`
