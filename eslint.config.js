// Lint rules: typescript-eslint's recommended set, no `any`, no unused disable directives.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'web/dist/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // .dependency-cruiser.cjs is CommonJS: its module and require are not undefined globals.
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // Tool configs that must be CommonJS (dependency-cruiser's) assign module.exports.
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
);
