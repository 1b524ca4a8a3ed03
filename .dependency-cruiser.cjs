/**
 * The house's boundaries, checked in lint: low-level plumbing (with the shapes of a capability and
 * of a job, src/capability.ts and src/job.ts) imports no capability; no import circles.
 */
const lowLevel = '^src/(http|store|config)/|^src/(config|clock|log|core|project-root|capability|job|meters)[.]ts$';
const capability = '^src/(?!http/|store/|config/)[^/]+/';

module.exports = {
  forbidden: [
    {
      name: 'low-level-imports-no-capability',
      comment:
        'src/http, src/store, the core modules and the capability and job shapes are shared plumbing: a capability depends on them, never the reverse.',
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
