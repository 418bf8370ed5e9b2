// This remote renders inside the shell (see its exposes); opened alone it only says so.
const root = document.getElementById('root')
if (root) root.textContent = 'mf-certifications is a Module Federation remote: open the portal through the shell.'
