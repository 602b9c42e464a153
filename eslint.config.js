import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'drizzle/**', 'test-results/**', 'playwright-report/**', 'data/**', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      // Services throw AppError (base/errors.ts) so the client gets a status and a message, never a 500.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ThrowStatement > NewExpression[callee.name='Error']",
          message: 'Throw AppError (server/src/base/errors.ts), not Error.',
        },
      ],
    },
  },
  {
    // The data layer's seam (docs/architecture.md "Data layer"): only server/src/db/ and the per-dialect
    // query modules (*.sqlite.ts, *.pg.ts) know which database is in use.
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/db/**', 'server/src/**/*.sqlite.ts', 'server/src/**/*.pg.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ThrowStatement > NewExpression[callee.name='Error']",
          message: 'Throw AppError (server/src/base/errors.ts), not Error.',
        },
        {
          selector: 'CallExpression[arguments.length=0][callee.property.name=/^(get|all|run)$/]',
          message: 'Await the query builder: .get()/.all()/.run() are SQLite-only (docs/architecture.md "Data layer").',
        },
        {
          selector: 'MemberExpression[property.name=/^(\\$client|pragma|writer|pool)$/]',
          message: 'Driver handles stay in server/src/db/ (docs/architecture.md "Data layer").',
        },
        {
          selector:
            "TaggedTemplateExpression[tag.name='sql'] TemplateElement[value.raw=/julianday|strftime|datetime\\(|COLLATE|NOCASE|ILIKE|PRAGMA|::|group_concat|string_agg|ifnull|iif\\(|to_char|date_trunc|\\bLIKE\\b/i]",
          message: 'Dialect-only SQL belongs in server/src/db/sql.ts or a *.sqlite.ts / *.pg.ts query module.',
        },
        {
          selector: "CallExpression[callee.object.name='sql'][callee.property.name='raw']",
          message: 'sql.raw belongs in server/src/db/ or a per-dialect query module.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(better-sqlite3|pg|drizzle-orm/(better-sqlite3|node-postgres|sqlite-core|pg-core)(/.*)?)$',
              message: 'Only server/src/db/ imports drivers and dialect builders (docs/architecture.md "Data layer").',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/test/**/*.ts', 'server/src/db/**/*.ts', 'server/src/demo/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['client/**/*.tsx', 'client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/set-state-in-effect': 'off' },
  },
  {
    // A feature imports only itself and shared code (client/src/lib/, client/src/components/), never
    // another feature: what two features need moves to lib/ or components/.
    files: ['client/src/features/*/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./)[^/]+/',
              message: 'Features do not import each other: move shared code to client/src/lib/ or client/src/components/.',
            },
            {
              regex: '(^|/)features/',
              message: 'Features do not import each other: move shared code to client/src/lib/ or client/src/components/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Shared code sits below the features: client/src/components/ and client/src/lib/ never import a feature. What a
    // shared piece needs from one is passed in by client/src/app/, which composes the features (the layout's
    // notification bell), or moves down into lib/ or components/.
    files: ['client/src/components/**', 'client/src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)features/',
              message: 'Shared code does not import features: pass it in from client/src/app/, or move it to lib/ or components/.',
            },
          ],
        },
      ],
    },
  },
);
