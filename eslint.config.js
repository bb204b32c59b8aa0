// @ts-check
// `npm run lint`: ESLint with typescript-eslint's type-checked recommended rules over the TypeScript the
// project type-checks (tsconfig.test.json: src with the CLI, scenarios, suites, bench, test), and the plain
// rules over its JavaScript (the build scripts, the test clients written in JavaScript, the two browser
// scripts), which has no types to check against. src/ keeps its files under 400 lines and its functions
// under 80, counting the lines of code: comments and blank lines are not counted, so that explaining why
// never costs a split.
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'coverage/**', 'examples/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    rules: {
      // `_` names what a destructuring or a signature has to take and the code does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    // TypeScript itself reports an undefined name, knowing the types and globals in scope.
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { ...globals.node },
    },
  },
  {
    // The launcher is CommonJS (bin/package.json says so), as is the layer check's configuration.
    files: ['bin/**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/devtools/live/live.js', 'src/node/reporters/report.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read JSON answers (response bodies, journal lines, reports) as `any` and index into them: the
    // assertion that follows is what checks their shape, so the unsafe-`any` rules would only ask for a
    // cast in front of every expectation. Every other type-checked rule stays on for tests.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
)
