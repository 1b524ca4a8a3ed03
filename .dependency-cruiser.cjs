/** The house's boundaries, checked in lint: low-level plumbing imports no capability; no import circles. */
/* global module */
const lowLevel = '^src/(http|store)/|^src/(config|clock|log|core)[.]ts$';
const capability = '^src/(?!http/|store/|config[.]ts|clock[.]ts|log[.]ts|core[.]ts)[^/]+/';

module.exports = {
  forbidden: [
    {
      name: 'low-level-imports-no-capability',
      comment: 'src/http, src/store and the core modules are shared plumbing: a capability depends on them, never the reverse.',
      severity: 'error',
      from: { path: lowLevel },
      to: { path: capability },
    },
    {
      name: 'no-circular',
      comment: 'An import circle (types included) ties modules that should be separable.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(web|test|bench|dist)/' },
  },
};
