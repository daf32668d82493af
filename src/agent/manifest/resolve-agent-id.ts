// The agent id: front-matter `id`, else `name`, else the upload's file name without its extension
// (DESIGN.md §10). A blank candidate falls through to the next; the chosen one must be a sensible id
// (trimmed, at most 200 characters, no control characters), otherwise no id can be resolved.
import type { FrontMatter } from './front-matter.js';

export const MAX_ID_LENGTH = 200;

// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** A trimmed id, or null when the text is not a usable id. */
export function normalizeId(text: string): string | null {
  const id = text.trim();
  if (id === '' || id.length > MAX_ID_LENGTH || CONTROL_CHARACTER.test(id)) return null;
  return id;
}

export function uploadBaseName(uploadName: string | undefined): string | null {
  const fileName = uploadName?.split(/[\\/]/).at(-1) ?? '';
  const withoutExtension = fileName.includes('.') ? fileName.slice(0, fileName.lastIndexOf('.')) : fileName;
  return withoutExtension.trim() === '' ? null : withoutExtension;
}

export function resolveAgentId(frontMatter: FrontMatter, uploadName: string | undefined): string | null {
  const id = frontMatter.text('id');
  const name = frontMatter.text('name');
  if (!id.ok || !name.ok) return null;
  const candidate = [id.value, name.value, uploadBaseName(uploadName)].find((value) => value !== null && value.trim() !== '');
  return candidate === undefined || candidate === null ? null : normalizeId(candidate);
}
