// The configuration reference: one row per key, generated from the key table (plus the few
// settings read straight from environment variables), for docs/reference/configuration.md and its check.
import type { ConfigKeyDoc } from './config-key-doc.js';
import { hostSettingDocs } from './host-settings.js';
import type { KeyEntry } from './key-entry.js';
import { keyTable } from './key-table.js';

export const configReference: readonly ConfigKeyDoc[] = Object.freeze(
  [
    ...hostSettingDocs,
    ...keyTable.map((entry) => ({ key: entry.key, type: entry.codec.display, default: displayDefault(entry), meaning: entry.meaning })),
  ].map((doc) => Object.freeze({ ...doc })),
);

function displayDefault(entry: KeyEntry): string {
  if (entry.defaultText !== undefined) return entry.defaultText;
  if (entry.required) return 'required';
  const value = entry.default;
  if (value === undefined || value === null || typeof value === 'function') return '';
  if (Array.isArray(value)) return value.length === 0 ? 'empty' : value.join(', ');
  return String(value);
}
