// Conventions in tooling, not prose: type-aware rules and the import zones of STYLE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const features = ['models', 'agent', 'tools', 'policies', 'approvals', 'bundles', 'workflows', 'evals', 'schedules', 'webhooks', 'mcp-gateway', 'a2a'];
const zone = (target, from, message) => ({ target: `./src/${target}`, from: `./src/${from}`, message });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', '.bench-trees/**', 'src/client/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify handlers and hooks are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { maxDepth: 8 }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => zone('platform', f, 'platform imports no feature')),
            zone('platform', 'runs', 'platform imports no feature'),
            // The storage port is Promise-only to its callers; in-process stores' synchronous answers are the platform's own.
            ...[...features, 'runs', 'app.ts', 'cli', 'system', 'capabilities', 'console'].map((f) =>
              zone(f, 'platform/storage/immediate-answers.ts', 'the storage port is Promise-only outside the platform'),
            ),
            ...features.map((f) => zone('runs', f, 'runs imports only platform')),
            ...['agent', 'tools', 'bundles', 'workflows', 'evals'].map((f) => zone('models', f, 'models imports only platform')),
            // agent/: the loop is framework-free and receives its tools as an argument; the runtime runs it
            // for a caller on the tool plane; the manifest reads AGENT.md. Features use agents, never the reverse.
            ...['tools', 'bundles', 'workflows', 'evals', 'agent/runtime', 'agent/manifest'].map((f) => zone('agent/loop', f, 'the agent loop imports only models and platform; it receives its tools as an argument')),
            ...['bundles', 'workflows', 'evals'].map((f) => zone('agent', f, 'agent imports tools, models and platform only')),
            ...['agent', 'bundles', 'workflows', 'evals'].map((f) => zone('tools', f, 'tools imports models and platform only')),
            // The approval contract serves every family and knows none of them (a family registers how its runs hear a decision).
            ...['models', 'agent', 'tools', 'bundles', 'workflows', 'evals', 'runs'].map((f) => zone('approvals', f, 'approvals imports only platform')),
            // Schedules start other families' runs through a port app.ts fills; no family knows them.
            ...['models', 'agent', 'tools', 'approvals', 'bundles', 'workflows', 'evals', 'runs'].map((f) => zone('schedules', f, 'schedules imports only platform (its targets are a port)')),
            ...['models', 'agent', 'tools', 'approvals', 'bundles', 'workflows', 'evals', 'runs'].map((f) => zone(f, 'schedules', 'nothing but the composition root imports schedules')),
            // Webhooks deliver what the families write to the platform's outbox; they know no family, and
            // of the tool plane only http_fetch's destination vetting (one SSRF policy, not two).
            ...['models', 'agent', 'approvals', 'bundles', 'workflows', 'evals', 'runs'].map((f) => zone('webhooks', f, 'webhooks import only platform and the http_fetch vetting')),
            { target: './src/webhooks', from: './src/tools', except: ['./builtin/http-fetch'], message: 'webhooks import only platform and the http_fetch vetting' },
            ...['models', 'agent', 'tools', 'approvals', 'bundles', 'workflows', 'evals'].map((f) => zone(f, 'webhooks', 'families write events to the platform outbox; only app.ts knows webhooks')),
            // The MCP gateway is one more surface of the tool plane: it uses agents' tool offering and the tools, and only app.ts mounts it.
            ...['approvals', 'bundles', 'workflows', 'evals', 'schedules', 'webhooks', 'runs'].map((f) => zone('mcp-gateway', f, 'the MCP gateway imports agent, tools, models and platform only')),
            ...['models', 'agent', 'tools', 'approvals', 'bundles', 'workflows', 'evals', 'schedules', 'webhooks', 'runs', 'capabilities', 'system', 'console'].map((f) =>
              zone(f, 'mcp-gateway', 'only the composition root mounts the MCP gateway'),
            ),
            // The policy layer (DESIGN §18) decides one call from the catalog's descriptors; the tool plane and its surfaces use it.
            ...['agent', 'approvals', 'bundles', 'workflows', 'evals', 'schedules', 'webhooks', 'mcp-gateway', 'runs'].map((f) => zone('policies', f, 'policies import only the tool plane and platform')),
            // A2A (DESIGN §20) is one more door to bundle runs: it adapts the bundle plane, and only app.ts mounts it.
            ...['workflows', 'evals', 'schedules', 'webhooks', 'mcp-gateway', 'policies'].map((f) => zone('a2a', f, 'A2A adapts bundle runs and approvals only')),
            ...['models', 'agent', 'tools', 'policies', 'approvals', 'bundles', 'workflows', 'evals', 'schedules', 'webhooks', 'mcp-gateway', 'runs', 'capabilities', 'system', 'console'].map((f) =>
              zone(f, 'a2a', 'only the composition root mounts A2A'),
            ),
            zone('bundles', 'workflows', 'bundles and workflows are siblings'),
            zone('bundles', 'evals', 'nothing imports evals'),
            zone('workflows', 'bundles', 'bundles and workflows are siblings'),
            zone('workflows', 'evals', 'nothing imports evals'),
            ...[...features, 'runs'].map((f) => zone('console', f, 'the console server side imports only platform')),
            // The browser bundle (console/ at the root) talks to the service over HTTP only.
            { target: './console', from: './src', message: 'the browser console reaches the service over HTTP, never by import' },
            ...['platform', 'runs', ...features].map((f) => zone(f, 'client', 'the service never imports its client')),
          ],
        },
      ],
    },
  },
  {
    // The service's runtime imports of these go through src/platform/vendor/, which the build bundles
    // (decision 3605); a direct import would load the whole package again. Types may come from anywhere.
    files: ['src/**/*.ts'],
    ignores: ['src/platform/vendor/**', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['typebox', 'typebox/compile', '@ai-sdk/provider-utils', 'jose', 'temporal-polyfill', '@marcbachmann/cel-js'].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'import it from src/platform/vendor/ (one tree-shaken bundle in dist/; decision 3605)',
          })),
          patterns: [{ group: ['typebox/*'], allowTypeImports: true, message: 'import it from src/platform/vendor/typebox.ts (decision 3605)' }],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
        Buffer: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        clearTimeout: 'readonly',
        FormData: 'readonly',
        Blob: 'readonly',
        performance: 'readonly',
      },
    },
  },
);
